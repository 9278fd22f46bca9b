import type { Logger } from 'pino';
import type { Executor, Store } from '../store/store.js';
import * as wsRepo from '../store/repositories/workspaces.js';
import { AppError } from '../domain/errors.js';
import {
  autoStopIfIdle,
  beginRecovery,
  beginWorkspaceOperation,
  maintenanceDueAt,
  type WorkspaceOpParams,
} from '../domain/workspace-operations.js';
import type { Catalog } from '../domain/catalog.js';
import { upgradeRefusal } from '../domain/versions.js';
import { findOrganisationById } from '../store/repositories/organisations.js';
import type { Clock } from '../domain/clock.js';
import type { WorkspaceDriver } from './drivers/driver.js';
import { SpecError, observedChanges, workspaceSpec } from './specs.js';

const HOUR = 3_600_000;
const BATCH = 50;
/** Active workspaces looked at per query of an observation pass. */
const OBSERVE_PAGE = 200;

export interface ObserveOptions {
  workspaces: WorkspaceDriver;
  catalog: Catalog;
  /** At most one observation pass per this much engine time. */
  observeMs: number;
  signal: AbortSignal;
}

/**
 * Brings workspaces in line with time and with their runtimes: auto-stop of idle workspaces,
 * upgrades in maintenance windows, and the reconcile hook: every observation interval the
 * workspace driver is asked whether each Active workspace still runs (and may report fresh
 * figures); one whose runtime is gone is recovered. Each start is a compare-and-set on the
 * workspace, so with several processes exactly one of them starts it. What time makes
 * obsolete is the Pruner's (pruner.ts).
 */
export class Reconciler {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly observing: ObserveOptions,
  ) {}

  private lastObserve = -Infinity;

  /** Whether an observation pass is due: kept by time alone, so the store's due times do not show it. */
  periodicDue(now: number): boolean {
    return now - this.lastObserve >= this.observing.observeMs;
  }

  /** Something was lost meanwhile: the next tick observes whatever the interval. */
  observeSoon(): void {
    this.lastObserve = -Infinity;
  }

  async tick(): Promise<number> {
    return (await this.autoStop()) + (await this.maintenance()) + (await this.observe());
  }

  /**
   * One observation pass, at most once per interval of the engine clock. It is not among
   * the instants the manual clock stops at (a pass every interval would make advancing a
   * day take thousands of stops): with the manual clock a pass runs when time has moved on
   * by the interval. Returns how many recoveries it started.
   */
  private async observe(): Promise<number> {
    const now = this.clock.now();
    if (now - this.lastObserve < this.observing.observeMs) return 0;
    this.lastObserve = now;
    const { workspaces, catalog, signal } = this.observing;
    let recovered = 0;
    for (let after = ''; !signal.aborted;) {
      const page = await wsRepo.activeWorkspacesAfter(this.store.db, after, OBSERVE_PAGE);
      for (const ws of page) {
        if (signal.aborted) break;
        let spec;
        try {
          spec = workspaceSpec(ws, catalog);
        } catch (err) {
          if (err instanceof SpecError) continue;
          throw err;
        }
        const seen = await workspaces
          .observe(spec, { now, signal, testEnv: ws.x_test_env ?? undefined })
          .catch((err: unknown) => {
            // A look that fails says nothing about the workspace; the next pass looks again.
            this.logger.warn({ err, workspace: ws.id }, 'observing the workspace failed');
            return undefined;
          });
        if (seen?.kind === 'running' && seen.observed) {
          await wsRepo.recordObservedFigures(this.store.db, ws.id, figuresOf(observedChanges(seen.observed, now)));
        } else if (seen?.kind === 'lost') {
          const reason = `the runtime was lost: ${seen.reason}`;
          if (await this.store.transaction((trx) => beginRecovery(trx, ws, reason, now))) {
            recovered++;
            this.logger.warn({ workspace: ws.id, reason: seen.reason }, 'workspace runtime lost; recovering it');
          }
        }
      }
      if (page.length < OBSERVE_PAGE) break;
      after = page[page.length - 1]!.id;
    }
    return recovered;
  }

  /** The earliest instant something here becomes due. */
  async nextDueAt(after: number): Promise<number | undefined> {
    const times = [
      await wsRepo.nextAutoStopAt(this.store.db, after),
      await wsRepo.nextMaintenanceAt(this.store.db, after),
    ].filter((t): t is number => t !== undefined);
    return times.length ? Math.min(...times) : undefined;
  }

  private async autoStop(): Promise<number> {
    const now = this.clock.now();
    let started = 0;
    for (const ws of await wsRepo.idleWorkspaces(this.store.db, now, BATCH)) {
      if (await this.store.transaction((trx) => autoStopIfIdle(trx, ws.id, now))) {
        started++;
        this.logger.info({ workspace: ws.id, idle_minutes: ws.auto_stop_minutes }, 'auto-stop: pausing idle workspace');
      }
    }
    return started;
  }

  private async maintenance(): Promise<number> {
    const now = this.clock.now();
    let changed = 0;
    for (const ws of await wsRepo.maintenanceDue(this.store.db, now, BATCH)) {
      const ready = ws.status === 'Active' && ws.desired_tg_version && ws.auto_upgrade_state !== 'disabled';
      const done = await this.attempt(() =>
        this.store.transaction(async (trx) => {
          const refusal = ready ? await this.refusalAtWindow(trx.db, ws, now) : undefined;
          if (refusal !== undefined) {
            // The catalog changed since the upgrade was asked for (an end of life came, say).
            const dropped = {
              desired_tg_version: null,
              maintenance_due_at: null,
              upgrade_requested_at: null,
              upgrade_requested_by: null,
              err_message: `the scheduled upgrade to ${ws.desired_tg_version} was dropped: ${refusal}`,
            };
            if (!(await wsRepo.updateWorkspace(trx, ws, dropped, now)))
              throw new AppError('conflict', { field: 'version_number', reason: 'changed meanwhile' });
            this.logger.warn(
              { workspace: ws.id, tg_version: ws.desired_tg_version, refusal },
              'scheduled upgrade dropped',
            );
          } else if (ready) {
            const params: WorkspaceOpParams = {
              op: 'upgrade',
              tg_version: ws.desired_tg_version!,
              from_version: ws.tg_version,
              maintenance: true,
              reason: 'maintenance',
            };
            await beginWorkspaceOperation(trx, ws, params, now, { maintenance_due_at: null });
            this.logger.info({ workspace: ws.id, tg_version: ws.desired_tg_version }, 'maintenance window: upgrading');
          } else if (
            !(await wsRepo.updateWorkspace(trx, ws, { maintenance_due_at: maintenanceDueAt(ws, now + HOUR) }, now))
          ) {
            throw new AppError('conflict', { field: 'version_number', reason: 'changed meanwhile' });
          }
        }),
      );
      if (done) changed++;
    }
    return changed;
  }

  /** Why the catalog no longer lets the workspace move to its scheduled version; undefined when it does. */
  private async refusalAtWindow(db: Executor, ws: wsRepo.Workspace, now: number): Promise<string | undefined> {
    const org = await findOrganisationById(db, ws.org_id);
    if (!org) return undefined;
    const who = { orgId: org.id, orgName: org.name };
    return upgradeRefusal(this.observing.catalog, who, ws.tg_version, ws.desired_tg_version!, now);
  }

  /** Runs a compare-and-set; a conflict means another process or request got there first. */
  private async attempt(fn: () => Promise<unknown>): Promise<boolean> {
    try {
      await fn();
      return true;
    } catch (err) {
      if (err instanceof AppError && err.code === 'conflict') return false;
      throw err;
    }
  }
}

/** The figures a look may record between operations: data and where it is served, not what it runs at. */
function figuresOf(changes: wsRepo.WorkspaceChanges): wsRepo.ObservedFigures {
  const keys = [
    'graph_topology_size_bytes',
    'vertex_count',
    'edge_count',
    'data_observed_at',
    'endpoint',
    'snapshot_time',
    'snapshot_id',
  ] as const;
  return Object.fromEntries(keys.filter((k) => changes[k] !== undefined).map((k) => [k, changes[k]]));
}
