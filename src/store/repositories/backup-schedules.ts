import type { Selectable } from 'kysely';
import type { BackupSchedulesTable } from '../schema.js';
import type { Executor } from '../store.js';

/** A workspace's backup schedule as the domain sees it: `pause` as a boolean. */
export interface BackupSchedule extends Omit<Selectable<BackupSchedulesTable>, 'pause'> {
  pause: boolean;
}

export type BackupScheduleChanges = Partial<
  Omit<BackupSchedule, 'id' | 'org_id' | 'workspace_id' | 'created_at' | 'version_number'>
>;

function fromRow(row: Selectable<BackupSchedulesTable>): BackupSchedule {
  return { ...row, pause: row.pause === 1 };
}

function toColumns(changes: BackupScheduleChanges) {
  const { pause, ...rest } = changes;
  return { ...rest, ...(pause !== undefined ? { pause: pause ? 1 : 0 } : {}) };
}

export async function insertBackupSchedule(db: Executor, s: BackupSchedule): Promise<void> {
  await db
    .insertInto('backup_schedules')
    .values({ ...s, pause: s.pause ? 1 : 0 })
    .execute();
}

export async function findBackupScheduleOfWorkspace(
  db: Executor,
  workspaceId: string,
): Promise<BackupSchedule | undefined> {
  const row = await db
    .selectFrom('backup_schedules')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row && fromRow(row);
}

/** Applies the changes when the row is still at the version read; false otherwise. */
export async function updateBackupSchedule(
  db: Executor,
  s: Pick<BackupSchedule, 'id' | 'version_number'>,
  changes: BackupScheduleChanges,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('backup_schedules')
    .set({ ...toColumns(changes), updated_at: now, version_number: s.version_number + 1 })
    .where('id', '=', s.id)
    .where('version_number', '=', s.version_number)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Claims one firing: moves next_run_at from the occurrence read to the next one. Only one
 * caller (request, process) can move it from that value, so each occurrence fires once.
 */
export async function claimFiring(
  db: Executor,
  id: string,
  due: number,
  next: number | null,
  run: { outcome: string; reason: string | null; backupId: string | null },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('backup_schedules')
    .set({
      next_run_at: next,
      last_run_at: now,
      last_run_outcome: run.outcome,
      last_run_reason: run.reason,
      last_backup_id: run.backupId,
    })
    .where('id', '=', id)
    .where('next_run_at', '=', due)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Unpaused schedules whose next occurrence is due at `now`. */
export async function dueBackupSchedules(db: Executor, now: number, limit: number): Promise<BackupSchedule[]> {
  const rows = await db
    .selectFrom('backup_schedules')
    .selectAll()
    .where('pause', '=', 0)
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
  return rows.map(fromRow);
}

export async function nextBackupFiringAt(db: Executor, after: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('backup_schedules')
    .select((eb) => eb.fn.min('next_run_at').as('at'))
    .where('pause', '=', 0)
    .where('next_run_at', '>', after)
    .executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}

export async function recordLastBackup(db: Executor, id: string, backupId: string): Promise<void> {
  await db.updateTable('backup_schedules').set({ last_backup_id: backupId }).where('id', '=', id).execute();
}
