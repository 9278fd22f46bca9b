import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor, Tx } from '../store.js';

export interface BillingAccount {
  org_id: string;
  balance_micros: number;
  granted_micros: number;
  charged_micros: number;
  updated_at: number;
}

export async function findAccount(db: Executor, orgId: string): Promise<BillingAccount | undefined> {
  return db.selectFrom('billing_accounts').selectAll().where('org_id', '=', orgId).executeTakeFirst();
}

/** Adds to the organisation's balance (a grant when positive, a charge when negative); makes its account if need be. */
export async function addToAccount(db: Executor, orgId: string, deltaMicros: number, now: number): Promise<void> {
  const granted = Math.max(deltaMicros, 0);
  const charged = Math.max(-deltaMicros, 0);
  await db
    .insertInto('billing_accounts')
    .values({
      org_id: orgId,
      balance_micros: deltaMicros,
      granted_micros: granted,
      charged_micros: charged,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('org_id').doUpdateSet({
        balance_micros: sql`billing_accounts.balance_micros + ${deltaMicros}`,
        granted_micros: sql`billing_accounts.granted_micros + ${granted}`,
        charged_micros: sql`billing_accounts.charged_micros + ${charged}`,
        updated_at: now,
      }),
    )
    .execute();
}

export interface NewLedgerEntry {
  org_id: string;
  kind: 'grant' | 'charge';
  amount_micros: number;
  workspace_id?: string;
  period_start?: number;
  compute_micros?: number;
  addon_micros?: number;
  storage_micros?: number;
  running_ms?: number;
  note?: string;
  created_at: number;
}

export async function insertLedgerEntry(db: Executor, entry: NewLedgerEntry): Promise<void> {
  await db
    .insertInto('credit_ledger')
    .values({
      id: randomUUID(),
      org_id: entry.org_id,
      kind: entry.kind,
      amount_micros: entry.amount_micros,
      workspace_id: entry.workspace_id ?? null,
      period_start: entry.period_start ?? null,
      compute_micros: entry.compute_micros ?? null,
      addon_micros: entry.addon_micros ?? null,
      storage_micros: entry.storage_micros ?? null,
      running_ms: entry.running_ms ?? null,
      note: entry.note ?? null,
      created_at: entry.created_at,
    })
    .execute();
}

/** The organisation's charges since `from`, summed (one indexed range). */
export async function chargedSince(db: Executor, orgId: string, from: number): Promise<number> {
  const row = await db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.sum<number | string | null>('amount_micros').as('total'))
    .where('org_id', '=', orgId)
    .where('kind', '=', 'charge')
    .where('created_at', '>=', from)
    .executeTakeFirst();
  return -Number(row?.total ?? 0);
}

/** The start of the last hour metered, if any. */
export async function lastMeteredPeriod(db: Executor): Promise<number | undefined> {
  const row = await db
    .selectFrom('metering_periods')
    .select((eb) => eb.fn.max('period_start').as('at'))
    .executeTakeFirst();
  return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
}

/**
 * Claims the hour starting at `start` for this transaction: true for exactly one caller,
 * whichever process it runs in (the key is the table's primary key). On PostgreSQL a
 * concurrent claim waits for the first to commit or roll back, then finds it taken or not.
 */
export async function claimPeriod(tx: Tx, start: number, now: number, owner: string): Promise<boolean> {
  const result = await tx.db
    .insertInto('metering_periods')
    .values({ period_start: start, metered_at: now, owner })
    .onConflict((oc) => oc.column('period_start').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export interface MeterState {
  workspace_id: string;
  org_id: string;
  running: boolean;
  size: string;
  enable_ha: boolean;
  platform: string;
  region: string;
  /** Priced add-ons enabled on it, by unique name. */
  addons: string[];
  storage_bytes: number;
}

export async function listMeterStates(db: Executor): Promise<MeterState[]> {
  const rows = await db.selectFrom('metering_state').selectAll().execute();
  return rows.map((r) => ({
    ...r,
    running: r.running === 1,
    enable_ha: r.enable_ha === 1,
    addons: JSON.parse(r.addons) as string[],
  }));
}

export async function saveMeterState(db: Executor, s: MeterState): Promise<void> {
  const row = {
    org_id: s.org_id,
    running: s.running ? 1 : 0,
    size: s.size,
    enable_ha: s.enable_ha ? 1 : 0,
    platform: s.platform,
    region: s.region,
    addons: JSON.stringify(s.addons),
    storage_bytes: s.storage_bytes,
  };
  await db
    .insertInto('metering_state')
    .values({ workspace_id: s.workspace_id, ...row })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(row))
    .execute();
}

export async function deleteMeterState(db: Executor, workspaceId: string): Promise<void> {
  await db.deleteFrom('metering_state').where('workspace_id', '=', workspaceId).execute();
}

export interface WorkspaceChange {
  workspace_id: string;
  org_id: string;
  type: string;
  time: number;
  data: string;
}

/** Workspace events in [from, to), in the order they were written (the time index bounds the read). */
export async function workspaceChangesBetween(db: Executor, from: number, to: number): Promise<WorkspaceChange[]> {
  const rows = await db
    .selectFrom('events')
    .select(['resource_id', 'org_id', 'type', 'time', 'data'])
    .where('resource_kind', '=', 'workspace')
    .where('time', '>=', from)
    .where('time', '<', to)
    .orderBy('time')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ workspace_id: r.resource_id, org_id: r.org_id, type: r.type, time: r.time, data: r.data }));
}

export interface DelinquentOrganisation {
  id: string;
  tier: string;
  delinquent_since: number;
}

/** Organisations out of credit, oldest first (the index of migration 0038). */
export async function delinquentOrganisations(db: Executor, limit: number): Promise<DelinquentOrganisation[]> {
  const rows = await db
    .selectFrom('organisations')
    .select(['id', 'tier', 'delinquent_since'])
    .where('delinquent_since', 'is not', null)
    .orderBy('delinquent_since')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, tier: r.tier, delinquent_since: Number(r.delinquent_since) }));
}

export async function delinquentSince(db: Executor, orgId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('organisations')
    .select('delinquent_since')
    .where('id', '=', orgId)
    .executeTakeFirst();
  return row?.delinquent_since === null || row?.delinquent_since === undefined
    ? undefined
    : Number(row.delinquent_since);
}

/**
 * Marks the organisation delinquent from `at` (null: in good standing again) unless it already
 * is; true when it changed, with its event. Every role reads events: the standing is told, the
 * balance is not (billing is for its readers only).
 */
async function setDelinquentSince(tx: Tx, orgId: string, at: number | null): Promise<boolean> {
  const result = await tx.db
    .updateTable('organisations')
    .set({ delinquent_since: at })
    .where('id', '=', orgId)
    .where('delinquent_since', at === null ? 'is not' : 'is', null)
    .executeTakeFirst();
  const changed = Number(result.numUpdatedRows) === 1;
  if (changed)
    tx.noteChange({
      kind: 'organisation',
      id: orgId,
      orgId,
      change: at === null ? 'reinstated' : 'delinquent',
      data: { org_id: orgId, delinquent_since: at === null ? null : new Date(at).toISOString() },
    });
  return changed;
}

export const markDelinquent = (tx: Tx, orgId: string, at: number) => setDelinquentSince(tx, orgId, at);

export const clearDelinquent = (tx: Tx, orgId: string) => setDelinquentSince(tx, orgId, null);

export interface MeterableWorkspace {
  id: string;
  org_id: string;
  status: string;
  is_rw: boolean;
  size: string;
  enable_ha: boolean;
  addons: string;
  graph_topology_size_bytes: number;
  platform: string;
  region: string;
}

/** Every workspace with its workgroup's platform and region: the meter's view of what exists now. */
export async function meterableWorkspaces(db: Executor): Promise<MeterableWorkspace[]> {
  const rows = await db
    .selectFrom('workspaces as w')
    .innerJoin('workgroups as g', 'g.id', 'w.workgroup_id')
    .select([
      'w.id',
      'w.org_id',
      'w.status',
      'w.is_rw',
      'w.size',
      'w.enable_ha',
      'w.addons',
      'w.graph_topology_size_bytes',
      'g.platform',
      'g.region',
    ])
    .execute();
  return rows.map((r) => ({
    ...r,
    is_rw: Number(r.is_rw) === 1,
    enable_ha: Number(r.enable_ha) === 1,
    addons: String(r.addons),
    graph_topology_size_bytes: Number(r.graph_topology_size_bytes),
  }));
}

/** The organisation's workspaces, as enforcement needs them. */
export async function workspacesOfOrganisation(
  db: Executor,
  orgId: string,
): Promise<Array<{ id: string; status: string; is_rw: boolean; database_id: string }>> {
  const rows = await db
    .selectFrom('workspaces')
    .select(['id', 'status', 'is_rw', 'database_id'])
    .where('org_id', '=', orgId)
    .execute();
  return rows.map((r) => ({ ...r, is_rw: Number(r.is_rw) === 1 }));
}

/** Whether any organisation was ever granted credit (and so is held to its balance). */
export async function anyAccountHeldToCredit(db: Executor): Promise<boolean> {
  const row = await db
    .selectFrom('billing_accounts')
    .select('org_id')
    .where('granted_micros', '>', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
