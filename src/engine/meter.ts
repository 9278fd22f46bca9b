import type { Logger } from 'pino';
import type { Catalog } from '../domain/catalog.js';
import type { Clock } from '../domain/clock.js';
import {
  addonPercent,
  computeMicrosPerHour,
  HOUR_MS,
  platformOfRegion,
  storageMicros,
  storageMicrosPerGbMonth,
} from '../domain/pricing.js';
import { beginWorkspaceOperation } from '../domain/workspace-operations.js';
import { stableStatuses } from '../schemas/vocabulary.js';
import {
  addToAccount,
  anyAccountHeldToCredit,
  claimPeriod,
  deleteMeterState,
  delinquentOrganisations,
  findAccount,
  insertLedgerEntry,
  lastMeteredPeriod,
  listMeterStates,
  markDelinquent,
  meterableWorkspaces,
  saveMeterState,
  workspaceChangesBetween,
  workspacesOfOrganisation,
  type MeterableWorkspace,
  type MeterState,
} from '../store/repositories/billing.js';
import { lockWorkspaceById } from '../store/repositories/workspaces.js';
import type { Store, Tx } from '../store/store.js';

/** Statuses in which a workspace's compute runs, and is charged. */
const runningStatuses = new Set(['Active', 'Resuming', 'Updating', 'Refreshing', 'Restoring']);
/** Hours caught up in one tick at most (a process down for a long time catches up over several). */
const MAX_PERIODS = 24 * 7;
/** How often (engine clock) the meter looks again without being due: another process may have changed things. */
const REFRESH_MS = 60_000;
const BATCH = 100;
/** How long (engine clock) a workspace this process asked to pause or delete is left to it before it is asked again. */
const RETRY_MS = 60_000;

/**
 * Meters usage by the hour and holds organisations to their credit (docs/billing.md).
 *
 * Each hour, once over, is claimed by inserting its start into metering_periods: exactly one
 * process's insert succeeds, and in that same transaction it charges the hour. The charge is
 * derived from what the store already records: the workspace events of the hour, in order,
 * applied to each workspace's state as the meter last saw it (metering_state), so every
 * stretch of time is priced at the shape (size, HA, region, priced add-ons, stored bytes) it
 * had. Charges go to the credit ledger and the organisation's balance; an organisation that
 * was ever granted credit and reaches zero becomes delinquent (`delinquent_since`, an event),
 * and past its tier's grace periods its workspaces are paused, then deleted, through the
 * normal operations, each with its events.
 */
export class Meter {
  private due = -Infinity;
  /** Workspaces this process asked to pause or delete, and when it may ask again. */
  private readonly asked = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly logger: Logger,
    private readonly owner: string,
  ) {}

  /** Whether a pass is due: kept by time (an hour's end, a grace period's), which the store's due times do not show. */
  periodicDue(now: number): boolean {
    return now >= this.due;
  }

  async tick(): Promise<number> {
    const now = this.clock.now();
    if (!this.periodicDue(now)) return 0;
    let done = 0;
    for (let i = 0; i < MAX_PERIODS; i++) {
      const last = await lastMeteredPeriod(this.store.db);
      if (last === undefined) {
        // Metering starts with the hour under way: the one before it counts as metered.
        await this.store.transaction((tx) => claimPeriod(tx, hourOf(now) - HOUR_MS, now, this.owner));
        continue;
      }
      const start = last + HOUR_MS;
      if (start + HOUR_MS > now) break;
      if (await this.store.transaction((tx) => this.meter(tx, start, now))) done++;
    }
    done += await this.enforce(now);
    for (const [id, at] of this.asked) if (at <= now - RETRY_MS) this.asked.delete(id);
    this.due = Math.min((await this.nextDueAt(now)) ?? Infinity, now + REFRESH_MS);
    return done;
  }

  /** Charges the hour starting at `start`, if this transaction claims it. */
  private async meter(tx: Tx, start: number, now: number): Promise<boolean> {
    if (!(await claimPeriod(tx, start, now, this.owner))) return false;
    const end = start + HOUR_MS;
    const db = tx.db;
    const changes = await workspaceChangesBetween(db, start, end);
    const changed = new Set(changes.map((c) => c.workspace_id));
    const seen = new Map((await listMeterStates(db)).map((s) => [s.workspace_id, s]));
    const fresh = new Set<string>();
    // A workspace the meter has not seen and that did not change this hour is as it is now
    // (it predates metering, or a snapshot brought it).
    for (const ws of await meterableWorkspaces(db)) {
      if (seen.has(ws.id) || changed.has(ws.id)) continue;
      seen.set(ws.id, this.stateOfRow(ws));
      fresh.add(ws.id);
    }

    const cursors = new Map<string, Cursor>();
    const cursorOf = (id: string, orgId: string): Cursor => {
      let c = cursors.get(id);
      if (!c) {
        c = { state: seen.get(id) ?? null, orgId, at: start, usage: emptyUsage(), changed: fresh.has(id) };
        cursors.set(id, c);
      }
      return c;
    };
    for (const id of seen.keys()) cursorOf(id, seen.get(id)!.org_id);
    for (const change of changes) {
      const c = cursorOf(change.workspace_id, change.org_id);
      this.accrue(c, change.time);
      c.state =
        change.type === 'workspace.deleted'
          ? null
          : this.stateOfRecord(change.workspace_id, change.org_id, JSON.parse(change.data), c.state);
      c.changed = true;
    }

    const byOrg = new Map<string, number>();
    for (const [id, c] of cursors) {
      this.accrue(c, end);
      const compute = Math.round(c.usage.compute);
      const addon = Math.round(c.usage.addon);
      const storage = Math.round(c.usage.storage);
      const amount = compute + addon + storage;
      if (amount > 0) {
        await insertLedgerEntry(db, {
          org_id: c.orgId,
          kind: 'charge',
          amount_micros: -amount,
          workspace_id: id,
          period_start: start,
          compute_micros: compute,
          addon_micros: addon,
          storage_micros: storage,
          running_ms: c.usage.runningMs,
          created_at: end,
        });
        byOrg.set(c.orgId, (byOrg.get(c.orgId) ?? 0) + amount);
      }
      if (!c.state) await deleteMeterState(db, id);
      else if (c.changed) await saveMeterState(db, c.state);
    }
    for (const [orgId, amount] of byOrg) {
      await addToAccount(db, orgId, -amount, end);
      const account = await findAccount(db, orgId);
      // Only an organisation that was granted credit is held to it.
      if (account && account.granted_micros > 0 && account.balance_micros <= 0) {
        if (await markDelinquent(tx, orgId, end))
          this.logger.info({ org: orgId, balance_micros: account.balance_micros }, 'organisation out of credit');
      }
    }
    this.logger.debug({ period_start: start, workspaces: cursors.size }, 'hour metered');
    return true;
  }

  /** Adds the usage of the cursor's state from its time to `to`. */
  private accrue(c: Cursor, to: number): void {
    const ms = Math.max(0, to - c.at);
    c.at = Math.max(c.at, to);
    const s = c.state;
    if (!s || ms === 0) return;
    if (s.running) {
      const shape = { size: s.size, enableHa: s.enable_ha, platform: s.platform, region: s.region };
      const compute = (computeMicrosPerHour(this.catalog, shape) * ms) / HOUR_MS;
      c.usage.compute += compute;
      c.usage.runningMs += ms;
      for (const addon of s.addons) c.usage.addon += (compute * addonPercent(this.catalog, addon)) / 100;
    }
    if (s.storage_bytes > 0)
      c.usage.storage += storageMicros(
        storageMicrosPerGbMonth(this.catalog, s.platform, s.region),
        s.storage_bytes,
        ms,
      );
  }

  /** Unique names of the priced add-ons among those enabled. */
  private pricedAddons(ids: Array<{ addons_id?: string; enable?: boolean }>): string[] {
    return ids
      .filter((a) => a.enable)
      .map((a) => this.catalog.addons.find((c) => c.addons_id === a.addons_id)?.unique_name)
      .filter((n): n is string => n !== undefined && addonPercent(this.catalog, n) > 0);
  }

  private stateOfRow(ws: MeterableWorkspace): MeterState {
    return {
      workspace_id: ws.id,
      org_id: ws.org_id,
      running: runningStatuses.has(ws.status),
      size: ws.size,
      enable_ha: ws.enable_ha,
      platform: ws.platform,
      region: ws.region,
      addons: this.pricedAddons(JSON.parse(ws.addons) as Array<{ addons_id?: string; enable?: boolean }>),
      // A read-only workspace reads its database's data: the read-write one pays for storing it.
      storage_bytes: ws.is_rw ? ws.graph_topology_size_bytes : 0,
    };
  }

  /** The state a workspace event's record shows (the record as the API renders it). */
  private stateOfRecord(id: string, orgId: string, record: RecordSeen, before: MeterState | null): MeterState {
    const region = record.region ?? before?.region ?? '';
    return {
      workspace_id: id,
      org_id: orgId,
      running: runningStatuses.has(record.status ?? ''),
      size: record.workspace_type?.typeName ?? before?.size ?? '',
      enable_ha: record.enable_ha ?? before?.enable_ha ?? false,
      platform: platformOfRegion(this.catalog, region) ?? before?.platform ?? '',
      region,
      addons: record.addons ? this.pricedAddons(record.addons) : (before?.addons ?? []),
      storage_bytes: record.is_rw === false ? 0 : (record.graph_topology_size_bytes ?? before?.storage_bytes ?? 0),
    };
  }

  /** Pauses, then deletes, the workspaces of organisations past their grace periods. */
  private async enforce(now: number): Promise<number> {
    let done = 0;
    for (const org of await delinquentOrganisations(this.store.db, BATCH)) {
      const { suspendAt, terminateAt } = this.stagesOf(org.tier, org.delinquent_since);
      if (now < suspendAt) continue;
      const terminating = now >= terminateAt;
      const all = await workspacesOfOrganisation(this.store.db, org.id);
      for (const ws of all) {
        if ((this.asked.get(ws.id) ?? -Infinity) > now) continue;
        if (terminating) {
          if (!(stableStatuses as readonly string[]).includes(ws.status)) continue;
          // Read-only workspaces first: a read-write one goes once nothing reads its database.
          if (ws.is_rw && all.some((r) => !r.is_rw && r.database_id === ws.database_id)) continue;
        } else if (ws.status !== 'Active') continue;
        const started = await this.store
          .transaction(async (tx) => {
            const locked = await lockWorkspaceById(tx.db, ws.id);
            if (!locked || locked.status !== ws.status) return false;
            const params = terminating ? { op: 'delete' as const } : { op: 'pause' as const, reason: 'billing' };
            await beginWorkspaceOperation(tx, locked, params, now);
            return true;
          })
          .catch((err: unknown) => {
            // Another process (or a request) changed it first: looked at again next pass.
            this.logger.warn({ err, workspace: ws.id }, 'billing could not stop a workspace');
            return false;
          });
        if (!started) continue;
        this.asked.set(ws.id, now + RETRY_MS);
        this.logger.info(
          { org: org.id, workspace: ws.id, delinquent_since: org.delinquent_since },
          terminating ? 'grace over: deleting workspace' : 'grace over: pausing workspace',
        );
        done++;
      }
    }
    return done;
  }

  private stagesOf(tier: string, since: number): { suspendAt: number; terminateAt: number } {
    const grace =
      this.catalog.billing.grace[tier as keyof Catalog['billing']['grace']] ?? this.catalog.billing.grace.free;
    const suspendAt = since + grace.suspend_hours * HOUR_MS;
    return { suspendAt, terminateAt: suspendAt + grace.terminate_hours * HOUR_MS };
  }

  /**
   * The next instant after `after` the meter has work: a grace period's end, a retry, and the
   * hour's end while some organisation is held to its credit (whether it runs out at an hour
   * decides when it is delinquent). Otherwise hours are metered at the next look, late but
   * the same: the events keep the times. The meter's own gate (`periodicDue`) opens by then too.
   */
  async nextDueAt(after: number): Promise<number | undefined> {
    const times = [...this.asked.values()];
    if (await anyAccountHeldToCredit(this.store.db)) {
      const last = await lastMeteredPeriod(this.store.db);
      times.push(last === undefined ? hourOf(after) + HOUR_MS : last + 2 * HOUR_MS);
    }
    for (const org of await delinquentOrganisations(this.store.db, BATCH)) {
      const { suspendAt, terminateAt } = this.stagesOf(org.tier, org.delinquent_since);
      times.push(suspendAt, terminateAt);
    }
    const later = times.filter((t) => t > after);
    const next = later.length ? Math.min(...later) : undefined;
    // What the engine is told is due must pass the meter's own gate when that time comes: an
    // account held to credit since the last pass makes an hour's end due sooner than the
    // pass's refresh time, and a clock moved to it would otherwise find nothing run there.
    if (next !== undefined && next < this.due) this.due = next;
    return next;
  }
}

const hourOf = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;

interface Usage {
  compute: number;
  addon: number;
  storage: number;
  runningMs: number;
}
const emptyUsage = (): Usage => ({ compute: 0, addon: 0, storage: 0, runningMs: 0 });

interface Cursor {
  state: MeterState | null;
  orgId: string;
  at: number;
  usage: Usage;
  /** The state differs from the stored one (or there is none yet). */
  changed: boolean;
}

/** What the meter reads of a workspace event's record. */
interface RecordSeen {
  status?: string;
  region?: string;
  is_rw?: boolean;
  enable_ha?: boolean;
  workspace_type?: { typeName?: string };
  addons?: Array<{ addons_id?: string; enable?: boolean }>;
  graph_topology_size_bytes?: number;
}
