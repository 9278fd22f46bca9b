import type { Selectable } from 'kysely';
import type { WorkgroupsTable } from '../schema.js';
import type { Executor } from '../store.js';
import { keyset, toPage, type CursorPosition, type PageResult } from '../pagination.js';
import { nameKey } from '../name-key.js';
import type { Tx } from '../unit-of-work.js';
import { countRows } from '../count-rows.js';

export interface Workgroup {
  id: string;
  org_id: string;
  name: string;
  cloud_provider_id: string;
  platform: string;
  region: string;
  enable_allow_list: boolean;
  enable_application_log: boolean;
  encryption_method: string | null;
  shared_storage: boolean;
  creator: string | null;
  created_at: number;
  updated_at: number;
  version_number: number;
  /** When the engine removes it and everything in it; null = never. */
  expires_at: number | null;
  /** When its removal started; null while it lives. */
  expired_at: number | null;
}

export type WorkgroupChanges = Partial<
  Pick<Workgroup, 'name' | 'enable_allow_list' | 'enable_application_log' | 'encryption_method' | 'expires_at'>
>;

export function workgroupFromRow(row: Selectable<WorkgroupsTable>): Workgroup {
  const { name_key: _nameKey, allow_list_entries: _entries, ...rest } = row;
  return {
    ...rest,
    enable_allow_list: row.enable_allow_list === 1,
    enable_application_log: row.enable_application_log === 1,
    shared_storage: row.shared_storage === 1,
  };
}

const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);

export async function insertWorkgroup(tx: Tx, wg: Workgroup): Promise<void> {
  await tx.db
    .insertInto('workgroups')
    .values({
      ...wg,
      name_key: nameKey(wg.name),
      enable_allow_list: flag(wg.enable_allow_list)!,
      enable_application_log: flag(wg.enable_application_log)!,
      shared_storage: flag(wg.shared_storage)!,
    })
    .execute();
  tx.noteChange({ kind: 'workgroup', id: wg.id, orgId: wg.org_id, workgroupId: wg.id, change: 'created' });
}

export async function findWorkgroup(db: Executor, orgId: string, id: string): Promise<Workgroup | undefined> {
  const row = await db
    .selectFrom('workgroups')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && workgroupFromRow(row);
}

/** By id alone, for system paths (the gateway) that act for no organisation. */
export async function findWorkgroupById(db: Executor, id: string): Promise<Workgroup | undefined> {
  const row = await db.selectFrom('workgroups').selectAll().where('id', '=', id).executeTakeFirst();
  return row && workgroupFromRow(row);
}

/** A page of the organisation's workgroups; with `name`, only the one of that name (through its unique key). */
export async function listWorkgroups(
  db: Executor,
  orgId: string,
  limit?: number,
  after?: CursorPosition,
  name?: string,
): Promise<PageResult<Workgroup>> {
  let query = db.selectFrom('workgroups').selectAll().where('org_id', '=', orgId);
  if (name !== undefined) query = query.where('name_key', '=', nameKey(name));
  const rows = await keyset(query, limit, after).execute();
  return toPage(rows.map(workgroupFromRow), limit);
}

/** How many workgroups the organisation has (through the (org_id, created_at, id) index). */
export async function countWorkgroups(db: Executor, orgId: string): Promise<number> {
  return countRows(db.selectFrom('workgroups').where('org_id', '=', orgId));
}

/** Applies the changes only if the row still has the version read; false when it changed meanwhile. */
export async function updateWorkgroup(tx: Tx, wg: Workgroup, changes: WorkgroupChanges, now: number): Promise<boolean> {
  const result = await tx.db
    .updateTable('workgroups')
    .set({
      ...(changes.name !== undefined ? { name: changes.name, name_key: nameKey(changes.name) } : {}),
      enable_allow_list: flag(changes.enable_allow_list),
      enable_application_log: flag(changes.enable_application_log),
      ...(changes.encryption_method !== undefined ? { encryption_method: changes.encryption_method } : {}),
      ...(changes.expires_at !== undefined ? { expires_at: changes.expires_at } : {}),
      updated_at: now,
      version_number: wg.version_number + 1,
    })
    .where('id', '=', wg.id)
    .where('version_number', '=', wg.version_number)
    // An expiry under way is not undone by a change made meanwhile.
    .where('expired_at', 'is', null)
    .executeTakeFirst();
  const updated = Number(result.numUpdatedRows) === 1;
  if (updated) tx.noteChange({ kind: 'workgroup', id: wg.id, orgId: wg.org_id, workgroupId: wg.id, change: 'updated' });
  return updated;
}

export async function deleteWorkgroup(tx: Tx, id: string): Promise<void> {
  const gone = await tx.db.deleteFrom('workgroups').where('id', '=', id).returning('org_id').executeTakeFirst();
  if (gone) tx.noteChange({ kind: 'workgroup', id, orgId: gone.org_id, workgroupId: id, change: 'deleted' });
}

/** Workgroups whose expiry is due at `now` and not started, soonest first. */
export async function dueExpiries(db: Executor, now: number, limit: number): Promise<Workgroup[]> {
  const rows = await db
    .selectFrom('workgroups')
    .selectAll()
    .where('expires_at', '<=', now)
    .where('expired_at', 'is', null)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return rows.map(workgroupFromRow);
}

/** The first expiry after `after` not yet started. */
export async function nextExpiryAt(db: Executor, after: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('workgroups')
    .select((eb) => eb.fn.min('expires_at').as('at'))
    .where('expires_at', '>', after)
    .where('expired_at', 'is', null)
    .executeTakeFirst();
  return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
}

/**
 * Starts the expiry of a due workgroup: the one process whose update finds it still unstarted
 * owns it (a compare-and-set, so it happens once across processes). False when another did.
 */
export async function claimExpiry(tx: Tx, wg: Workgroup, now: number): Promise<boolean> {
  const result = await tx.db
    .updateTable('workgroups')
    .set({ expired_at: now, updated_at: now, version_number: wg.version_number + 1 })
    .where('id', '=', wg.id)
    .where('expired_at', 'is', null)
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  const claimed = Number(result.numUpdatedRows) === 1;
  if (claimed) tx.noteChange({ kind: 'workgroup', id: wg.id, orgId: wg.org_id, workgroupId: wg.id, change: 'expired' });
  return claimed;
}

/** Workgroups whose expiry started, oldest first: the engine empties and removes them. */
export async function expiringWorkgroups(db: Executor, limit: number): Promise<Workgroup[]> {
  const rows = await db
    .selectFrom('workgroups')
    .selectAll()
    .where('expired_at', 'is not', null)
    .orderBy('expired_at')
    .limit(limit)
    .execute();
  return rows.map(workgroupFromRow);
}
