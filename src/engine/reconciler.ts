import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import * as wsRepo from '../store/repositories/workspaces.js';
import { deleteExpiredEntries } from '../store/repositories/allow-list.js';
import { AppError } from '../domain/errors.js';
import { purgeExpiredIdempotencyKeys } from '../domain/idempotency.js';
import { autoStopIfIdle, beginWorkspaceOperation, maintenanceDueAt } from '../domain/workspace-operations.js';
import type { Clock } from '../domain/clock.js';

const HOUR = 3_600_000;
const BATCH = 50;
const PURGE_EVERY = 60_000;

/**
 * Time-driven workspace changes: auto-stop of idle workspaces and upgrades in maintenance
 * windows. Each start is a compare-and-set on the workspace, so with several processes
 * exactly one of them starts it.
 */
export class Reconciler {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private lastPurge = -Infinity;

  async tick(): Promise<number> {
    await this.purge();
    return (await this.autoStop()) + (await this.maintenance());
  }

  /**
   * Removes what has stopped applying by time alone, at most once a minute of the clock:
   * expired allow-list entries (reads already filter them by time) and kept idempotent
   * responses past their 24 hours.
   */
  private async purge(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastPurge < PURGE_EVERY) return;
    this.lastPurge = now;
    await deleteExpiredEntries(this.store.db, now);
    await purgeExpiredIdempotencyKeys(this.store.db, now);
  }

  /** The earliest instant something here becomes due. */
  async nextDueAt(after: number): Promise<number | undefined> {
    const times = [await wsRepo.nextAutoStopAt(this.store.db, after), await wsRepo.nextMaintenanceAt(this.store.db, after)].filter((t): t is number => t !== undefined);
    return times.length ? Math.min(...times) : undefined;
  }

  private async autoStop(): Promise<number> {
    const now = this.clock.now();
    let started = 0;
    for (const ws of await wsRepo.idleWorkspaces(this.store.db, now, BATCH)) {
      if (await this.store.transaction((trx) => autoStopIfIdle(trx, this.store.dialect, ws.id, now))) {
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
          if (ready) {
            const params = { op: 'update' as const, actions: ['upgrade'], tg_version: ws.desired_tg_version!, maintenance: true };
            await beginWorkspaceOperation(trx, ws, params, now, { maintenance_due_at: null });
            this.logger.info({ workspace: ws.id, tg_version: ws.desired_tg_version }, 'maintenance window: upgrading');
          } else if (!(await wsRepo.updateWorkspace(trx, ws, { maintenance_due_at: maintenanceDueAt(ws, now + HOUR) }, now))) {
            throw new AppError('conflict', { field: 'version_number', reason: 'changed meanwhile' });
          }
        }),
      );
      if (done) changed++;
    }
    return changed;
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
