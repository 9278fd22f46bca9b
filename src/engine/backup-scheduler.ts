import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import * as schedulesRepo from '../store/repositories/backup-schedules.js';
import type { BackupSchedule } from '../store/repositories/backup-schedules.js';
import { expiredAutomaticBackups, nextBackupExpiryAt } from '../store/repositories/backups.js';
import { findWorkspaceById } from '../store/repositories/workspaces.js';
import {
  autoBackupLimit,
  beginBackup,
  deleteBackupsAndData,
  nextOccurrence,
  pruneAutomaticBackups,
} from '../domain/backup-operations.js';
import type { Catalog } from '../domain/catalog.js';
import { GRACE_MS } from '../domain/schedule-firing.js';
import type { Clock } from '../domain/clock.js';

const BATCH = 50;

/**
 * Fires workspace backup schedules and expires automatic backups. A firing is claimed by a
 * compare-and-set on next_run_at in the transaction that creates the backup and enqueues its
 * operation, so each occurrence fires exactly once across processes and restarts.
 */
export class BackupScheduler {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly logger: Logger,
    /** Told of every firing and how it went. */
    private readonly ran: (outcome: 'started' | 'skipped') => void = () => undefined,
  ) {}

  async tick(): Promise<number> {
    return (await this.fireDue()) + (await this.expire());
  }

  /** The earliest instant after `after` at which a schedule fires or an automatic backup expires. */
  async nextDueAt(after: number): Promise<number | undefined> {
    const times = [
      await schedulesRepo.nextBackupFiringAt(this.store.db, after),
      await nextBackupExpiryAt(this.store.db, after),
    ].filter((t): t is number => t !== undefined);
    return times.length ? Math.min(...times) : undefined;
  }

  private async fireDue(): Promise<number> {
    const now = this.clock.now();
    let fired = 0;
    for (const schedule of await schedulesRepo.dueBackupSchedules(this.store.db, now, BATCH)) {
      const outcome = await this.fire(schedule, now);
      if (!outcome) continue;
      fired++;
      this.ran(outcome);
    }
    return fired;
  }

  /** One occurrence: a backup, or a recorded skip; undefined when another process claimed it first. */
  private fire(schedule: BackupSchedule, now: number): Promise<'started' | 'skipped' | undefined> {
    const due = schedule.next_run_at!;
    return this.store.transaction(async (trx) => {
      const ws = await findWorkspaceById(trx.db, schedule.workspace_id);
      const { tier, limit } = await autoBackupLimit(trx.db, this.catalog, schedule.org_id);
      const reason =
        now - due > GRACE_MS
          ? `the occurrence at ${new Date(due).toISOString()} was missed by more than ${GRACE_MS / 60_000} minutes`
          : !ws
            ? 'the workspace no longer exists'
            : !ws.is_rw
              ? 'the workspace is read-only'
              : ws.status !== 'Active'
                ? `the workspace is ${ws.status}; backups need it Active`
                : limit === 0
                  ? `the ${tier ?? 'organisation'} tier allows no automatic backups`
                  : undefined;
      const next = nextOccurrence(schedule.schedule, now);
      if (reason !== undefined || !ws) {
        const claimed = await schedulesRepo.claimFiring(
          trx.db,
          schedule.id,
          due,
          next,
          { outcome: 'skipped', reason: reason ?? null, backupId: null },
          now,
        );
        if (!claimed) return undefined;
        this.logger.info({ workspace: schedule.workspace_id, reason }, 'backup schedule: occurrence skipped');
        return 'skipped';
      }
      // Claim first: when another process won, nothing else is written.
      if (
        !(await schedulesRepo.claimFiring(
          trx.db,
          schedule.id,
          due,
          next,
          { outcome: 'started', reason: null, backupId: null },
          now,
        ))
      )
        return undefined;
      await pruneAutomaticBackups(trx, ws.id, schedule, limit, now);
      const backup = await beginBackup(
        trx,
        ws,
        { automatic: true, tag: null, maxAttempts: 1 + schedule.max_retry },
        now,
      );
      await schedulesRepo.recordLastBackup(trx.db, schedule.id, backup.id);
      this.logger.info({ workspace: ws.id, backup: backup.id }, 'backup schedule: automatic backup started');
      return 'started';
    });
  }

  /** Deletes automatic backups that reached their schedule's max_reserved_days. */
  private async expire(): Promise<number> {
    const now = this.clock.now();
    const expired = await expiredAutomaticBackups(this.store.db, now, BATCH);
    if (expired.length > 0) await this.store.transaction((trx) => deleteBackupsAndData(trx, expired, now));
    return expired.length;
  }
}
