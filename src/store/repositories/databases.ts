import type { Selectable } from 'kysely';
import type { DatabasesTable } from '../schema.js';
import type { Executor } from '../store.js';
import { nameKey } from '../name-key.js';
import type { Tx } from '../unit-of-work.js';
import { countRows } from '../count-rows.js';

export type Database = Omit<Selectable<DatabasesTable>, 'name_key'>;

const columns = [
  'id',
  'org_id',
  'workgroup_id',
  'name',
  'tg_version',
  'rw_workspace_id',
  'created_at',
  'updated_at',
  'version_number',
] as const;

export async function insertDatabase(tx: Tx, row: Database): Promise<void> {
  await tx.db
    .insertInto('databases')
    .values({ ...row, name_key: nameKey(row.name) })
    .execute();
  tx.noteChange({ kind: 'database', id: row.id, orgId: row.org_id, workgroupId: row.workgroup_id, change: 'created' });
}

/** How many databases the workgroup has, attached to workspaces or not. */
export async function countDatabases(db: Executor, workgroupId: string): Promise<number> {
  return countRows(db.selectFrom('databases').where('workgroup_id', '=', workgroupId));
}

export async function findDatabase(db: Executor, orgId: string, id: string): Promise<Database | undefined> {
  return db.selectFrom('databases').select(columns).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export async function findDatabaseById(db: Executor, id: string): Promise<Database | undefined> {
  return db.selectFrom('databases').select(columns).where('id', '=', id).executeTakeFirst();
}

export async function listDatabasesOfWorkgroups(db: Executor, workgroupIds: string[]): Promise<Database[]> {
  if (workgroupIds.length === 0) return [];
  return db
    .selectFrom('databases')
    .select(columns)
    .where('workgroup_id', 'in', workgroupIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function renameDatabase(tx: Tx, row: Database, name: string, now: number): Promise<boolean> {
  const result = await tx.db
    .updateTable('databases')
    .set({ name, name_key: nameKey(name), updated_at: now, version_number: row.version_number + 1 })
    .where('id', '=', row.id)
    .where('version_number', '=', row.version_number)
    .executeTakeFirst();
  const updated = Number(result.numUpdatedRows) === 1;
  if (updated)
    tx.noteChange({
      kind: 'database',
      id: row.id,
      orgId: row.org_id,
      workgroupId: row.workgroup_id,
      change: 'updated',
    });
  return updated;
}

export async function deleteDatabase(tx: Tx, id: string): Promise<void> {
  const gone = await tx.db
    .deleteFrom('databases')
    .where('id', '=', id)
    .returning(['org_id', 'workgroup_id'])
    .executeTakeFirst();
  if (gone)
    tx.noteChange({ kind: 'database', id, orgId: gone.org_id, workgroupId: gone.workgroup_id, change: 'deleted' });
}
