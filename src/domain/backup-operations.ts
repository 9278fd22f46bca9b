import { Cron } from 'croner';
import { newId } from './ids.js';
import type { Executor, Tx } from '../store/store.js';
import * as backupsRepo from '../store/repositories/backups.js';
import type { Backup } from '../store/repositories/backups.js';
import { findBackupScheduleOfWorkspace, type BackupSchedule } from '../store/repositories/backup-schedules.js';
import { findOrganisationById } from '../store/repositories/organisations.js';
import type { Catalog, Tier } from './catalog.js';
import { insertOperation, type Operation } from '../store/repositories/operations.js';
import type { Workspace } from '../store/repositories/workspaces.js';
import type { BackupDeleteOpParams, BackupOpParams } from './operation-params.js';

export type { BackupOpParams };

export const BACKUP_KIND = 'backup.create';
export const BACKUP_DELETE_KIND = 'backup.delete';
const DAY = 86_400_000;
/**
 * Removing a deleted backup's data is retried longer than taking one: nobody waits on it, and
 * leaking it costs storage.
 */
const REMOVE_ATTEMPTS = 5;

/** The cron expression's next occurrence strictly after `after` (UTC), or null when it has none. */
export function nextOccurrence(schedule: string, after: number): number | null {
  try {
    const next = new Cron(schedule, { timezone: 'UTC', paused: true }).nextRun(new Date(after));
    return next ? next.getTime() : null;
  } catch (err) {
    // croner searches a day that no listed month has (`0 0 31 4,6,9,11 *`) month by month,
    // recursively, until the stack ends: such a schedule never occurs.
    if (err instanceof RangeError) return null;
    throw err;
  }
}

/** Why a cron expression is refused, or undefined when it is a valid 5-field expression. */
export function cronProblem(schedule: string): string | undefined {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5)
    return (
      `must be a 5-field cron expression (minute hour day-of-month ` +
      `month day-of-week), got ${fields.length} field(s)`
    );
  try {
    new Cron(schedule, { timezone: 'UTC', paused: true });
  } catch (err) {
    return `is not a valid cron expression: ${(err as Error).message}`;
  }
  return undefined;
}

/**
 * Records a new InProgress backup of the workspace and enqueues the operation that takes it,
 * in the caller's transaction.
 */
export async function beginBackup(
  trx: Tx,
  ws: Workspace,
  opts: { automatic: boolean; tag: string | null; maxAttempts: number },
  now: number,
): Promise<Backup> {
  const backup: Backup = {
    id: newId(),
    org_id: ws.org_id,
    workspace_id: ws.id,
    database_id: ws.database_id,
    is_automatic: opts.automatic,
    status: 'InProgress',
    tag: opts.tag,
    size_bytes: 0,
    tg_version: ws.tg_version,
    error: null,
    created_at: now,
    finished_at: null,
  };
  await backupsRepo.insertBackup(trx, backup);
  const params: BackupOpParams = { workspace_id: ws.id, automatic: opts.automatic };
  await insertOperation(trx, {
    id: newId(),
    org_id: ws.org_id,
    resource_type: 'backup',
    resource_id: backup.id,
    kind: BACKUP_KIND,
    params,
    max_attempts: opts.maxAttempts,
    run_at: now,
    created_at: now,
  });
  return backup;
}

/** The organisation's tier and how many automatic backups per RW workspace it keeps. */
export async function autoBackupLimit(
  db: Executor,
  catalog: Catalog,
  orgId: string,
): Promise<{ tier: Tier | undefined; limit: number }> {
  const tier = (await findOrganisationById(db, orgId))?.tier as Tier | undefined;
  return { tier, limit: (tier && catalog.tiers[tier]?.auto_backups) || 0 };
}

/** The backup was taken: record its size and, for an automatic one, apply the schedule's retention. */
export async function completeBackupOperation(
  trx: Tx,
  catalog: Catalog,
  op: Operation<BackupOpParams>,
  now: number,
  sizeBytes: number,
): Promise<void> {
  if (
    !(await backupsRepo.finishBackup(
      trx,
      op.resource_id,
      { status: 'Succeeded', size_bytes: sizeBytes, error: null },
      now,
    ))
  )
    return;
  const params = op.params;
  if (!params.automatic) return;
  const schedule = await findBackupScheduleOfWorkspace(trx.db, params.workspace_id);
  if (schedule)
    await pruneAutomaticBackups(
      trx,
      params.workspace_id,
      schedule,
      (await autoBackupLimit(trx.db, catalog, op.org_id)).limit,
      now,
    );
}

export async function failBackupOperation(trx: Tx, op: Operation, message: string, now: number): Promise<void> {
  await backupsRepo.finishBackup(trx, op.resource_id, { status: 'Failed', error: message }, now);
}

/**
 * Retention of automatic backups: Succeeded ones beyond the newest `max_backup_files` (never
 * more than the tier allows) and those `max_reserved_days` old or older are deleted. Failed
 * and InProgress backups are left alone; failed ones count toward nothing.
 */
export async function pruneAutomaticBackups(
  trx: Tx,
  workspaceId: string,
  schedule: BackupSchedule,
  tierLimit: number,
  now: number,
): Promise<number> {
  const keep = Math.min(schedule.max_backup_files, tierLimit);
  const kept = (await backupsRepo.listBackupsOfWorkspace(trx.db, workspaceId)).filter(
    (b) => b.is_automatic && b.status === 'Succeeded',
  );
  const newestFirst = [...kept].reverse();
  const doomed = newestFirst.filter((b, i) => i >= keep || now - b.created_at >= schedule.max_reserved_days * DAY);
  await deleteBackupsAndData(trx, doomed, now);
  return doomed.length;
}

/**
 * Deletes backup rows and enqueues the removal of their data by the driver, in the caller's
 * transaction: the backups are gone for every reader at once, and their storage is freed
 * once the driver has removed it.
 */
export async function deleteBackupsAndData(
  trx: Tx,
  backups: ReadonlyArray<Pick<Backup, 'id' | 'org_id' | 'workspace_id' | 'database_id'>>,
  now: number,
): Promise<void> {
  await backupsRepo.deleteBackups(
    trx,
    backups.map((b) => b.id),
  );
  for (const b of backups) await enqueueBackupRemoval(trx, b, now);
}

/** Enqueues the removal of a deleted backup's data, in the transaction that deleted its row. */
export async function enqueueBackupRemoval(
  trx: Tx,
  b: Pick<Backup, 'id' | 'org_id' | 'workspace_id' | 'database_id'>,
  now: number,
): Promise<void> {
  const params: BackupDeleteOpParams = { workspace_id: b.workspace_id, database_id: b.database_id };
  await insertOperation(trx, {
    id: newId(),
    org_id: b.org_id,
    resource_type: 'backup',
    resource_id: b.id,
    kind: BACKUP_DELETE_KIND,
    params,
    max_attempts: REMOVE_ATTEMPTS,
    run_at: now,
    created_at: now,
  });
}
