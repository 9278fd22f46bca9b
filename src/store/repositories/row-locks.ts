import { lockRows } from '../capabilities.js';
import type { Executor } from '../store.js';

/** Parents whose children are counted against a limit. */
export type LockableTable = 'organisations' | 'workgroups' | 'workspaces' | 'installed_addons' | 'db_users';

/**
 * Serialises the count-then-insert of a parent's children: on PostgreSQL the parent's row
 * stays locked until the transaction ends; a SQLite transaction holds the write lock from
 * its start (BEGIN IMMEDIATE) anyway.
 */
export async function lockRow(trx: Executor, table: LockableTable, id: string): Promise<void> {
  await lockRows(trx, trx.selectFrom(table).select('id').where('id', '=', id));
}
