import { sql, type Selectable } from 'kysely';
import type { BackupsTable } from '../schema.js';
import type { Executor } from '../store.js';
import type { Tx } from '../unit-of-work.js';
import { countRows } from '../count-rows.js';

const DAY = 86_400_000;

/** When a backup of the joined schedule expires; bigint arithmetic, or PostgreSQL's integer overflows past 24 days. */
export const backupExpiresAt = sql<number>`b.created_at + cast(s.max_reserved_days as bigint) * ${DAY}`;

export type BackupStatus = 'InProgress' | 'Succeeded' | 'Failed';

/** A backup as the domain sees it: `is_automatic` as a boolean. */
export interface Backup extends Omit<Selectable<BackupsTable>, 'is_automatic' | 'status'> {
  is_automatic: boolean;
  status: BackupStatus;
}

function fromRow(row: Selectable<BackupsTable>): Backup {
  return { ...row, is_automatic: row.is_automatic === 1, status: row.status as BackupStatus };
}

export async function insertBackup(tx: Tx, backup: Backup): Promise<void> {
  await tx.db
    .insertInto('backups')
    .values({ ...backup, is_automatic: backup.is_automatic ? 1 : 0 })
    .execute();
  const { id, org_id: orgId, workspace_id: workspaceId } = backup;
  tx.noteChange({ kind: 'backup', id, orgId, workspaceId, change: 'created' });
}

export async function findBackup(db: Executor, orgId: string, id: string): Promise<Backup | undefined> {
  const row = await db
    .selectFrom('backups')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && fromRow(row);
}

export async function findBackupById(db: Executor, id: string): Promise<Backup | undefined> {
  const row = await db.selectFrom('backups').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

/** The backups of a workspace, oldest first. */
export async function listBackupsOfWorkspace(db: Executor, workspaceId: string): Promise<Backup[]> {
  const rows = await db
    .selectFrom('backups')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(fromRow);
}

/** How many backups of the workspace count against a quota: those not Failed, manual or automatic. */
export async function countCountedBackups(db: Executor, workspaceId: string, automatic: boolean): Promise<number> {
  return countRows(
    db
      .selectFrom('backups')
      .where('workspace_id', '=', workspaceId)
      .where('is_automatic', '=', automatic ? 1 : 0)
      .where('status', '!=', 'Failed'),
  );
}

/** Marks an InProgress backup finished; false when it is gone or already finished. */
export async function finishBackup(
  tx: Tx,
  id: string,
  changes: { status: 'Succeeded' | 'Failed'; size_bytes?: number; error?: string | null },
  now: number,
): Promise<boolean> {
  const result = await tx.db
    .updateTable('backups')
    .set({ ...changes, finished_at: now })
    .where('id', '=', id)
    .where('status', '=', 'InProgress')
    .executeTakeFirst();
  const updated = Number(result.numUpdatedRows) === 1;
  if (updated) tx.noteChange({ kind: 'backup', id, change: 'status_changed' });
  return updated;
}

/** Deletes the backup unless it is InProgress; false when nothing was deleted. */
export async function deleteFinishedBackup(tx: Tx, id: string): Promise<boolean> {
  const gone = await tx.db
    .deleteFrom('backups')
    .where('id', '=', id)
    .where('status', '!=', 'InProgress')
    .returning(['id', 'org_id', 'workspace_id'])
    .execute();
  noteDeleted(tx, gone);
  return gone.length === 1;
}

export async function deleteBackups(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  noteDeleted(
    tx,
    await tx.db.deleteFrom('backups').where('id', 'in', ids).returning(['id', 'org_id', 'workspace_id']).execute(),
  );
}

function noteDeleted(tx: Tx, gone: Array<{ id: string; org_id: string; workspace_id: string }>): void {
  for (const { id, org_id: orgId, workspace_id: workspaceId } of gone)
    tx.noteChange({ kind: 'backup', id, orgId, workspaceId, change: 'deleted' });
}

/** Sum of Succeeded backups' sizes per database of the workgroups, for folder_statistics.backup_size. */
/** Sum of Succeeded backups' sizes of one database. */
export async function backupSizeOfDatabase(db: Executor, databaseId: string): Promise<number> {
  const row = await db
    .selectFrom('backups')
    .select((eb) => eb.fn.sum<number>('size_bytes').as('total'))
    .where('database_id', '=', databaseId)
    .where('status', '=', 'Succeeded')
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function backupSizesOfWorkgroups(db: Executor, workgroupIds: string[]): Promise<Map<string, number>> {
  if (workgroupIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('backups as b')
    .innerJoin('databases as d', 'd.id', 'b.database_id')
    .select((eb) => ['b.database_id', eb.fn.sum<number>('b.size_bytes').as('total')])
    .where('d.workgroup_id', 'in', workgroupIds)
    .where('b.status', '=', 'Succeeded')
    .groupBy('b.database_id')
    .execute();
  return new Map(rows.map((r) => [r.database_id, Number(r.total)]));
}

/**
 * Automatic Succeeded backups whose age has reached their workspace schedule's
 * max_reserved_days at `now`.
 */
export async function expiredAutomaticBackups(
  db: Executor,
  now: number,
  limit: number,
): Promise<Array<Pick<Backup, 'id' | 'org_id' | 'workspace_id' | 'database_id'>>> {
  return db
    .selectFrom('backups as b')
    .innerJoin('backup_schedules as s', 's.workspace_id', 'b.workspace_id')
    .select(['b.id', 'b.org_id', 'b.workspace_id', 'b.database_id'])
    .where('b.is_automatic', '=', 1)
    .where('b.status', '=', 'Succeeded')
    .where(backupExpiresAt, '<=', now)
    .limit(limit)
    .execute();
}

/** The earliest instant after `after` at which an automatic backup expires. */
export async function nextBackupExpiryAt(db: Executor, after: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('backups as b')
    .innerJoin('backup_schedules as s', 's.workspace_id', 'b.workspace_id')
    .select((eb) => eb.fn.min(backupExpiresAt).as('at'))
    .where('b.is_automatic', '=', 1)
    .where('b.status', '=', 'Succeeded')
    .where(backupExpiresAt, '>', after)
    .executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}
