import { lockedForUpdate } from '../capabilities.js';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { AllowListEntriesTable, DB } from '../schema.js';
import type { Executor } from '../store.js';
import type { Tx } from '../unit-of-work.js';
import { rangeBounds } from '../../addresses/cidr.js';

/** The range's bounds are the store's own (kept from `cidr` here): not part of an entry. */
export type AllowListEntry = Omit<Selectable<AllowListEntriesTable>, 'range_family' | 'range_first' | 'range_last'>;

const ENTRY_COLUMNS = [
  'id',
  'org_id',
  'workgroup_id',
  'cidr',
  'note',
  'expires_at',
  'created_at',
  'updated_at',
] as const;

/** The columns that let the store decide whether an address is in the range (see record-views). */
function boundsOf(cidr: string) {
  const { first, last } = rangeBounds(cidr);
  return { range_family: first.family, range_first: first.bytes, range_last: last.bytes };
}

export type AllowListChanges = Partial<Pick<AllowListEntry, 'cidr' | 'note' | 'expires_at'>>;

/** Entries still in force at `now`: without expiry, or expiring later. */
function inForce(now: number) {
  return (eb: ExpressionBuilder<DB, 'allow_list_entries'>) =>
    eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]);
}

/** Notes a change of an entry (its record is offered by the domain, see offerRecord). */
function note(tx: Tx, entry: Pick<AllowListEntry, 'id' | 'org_id' | 'workgroup_id'>, change: string): void {
  const place = { orgId: entry.org_id, workgroupId: entry.workgroup_id };
  tx.noteChange({ kind: 'allow_list_entry', id: entry.id, ...place, change, data: { id: entry.id } });
}

export async function insertEntry(tx: Tx, entry: AllowListEntry): Promise<void> {
  await tx.db
    .insertInto('allow_list_entries')
    .values({ ...entry, ...boundsOf(entry.cidr) })
    .execute();
  note(tx, entry, 'created');
}

export async function findEntry(
  db: Executor,
  workgroupId: string,
  id: string,
  now: number,
): Promise<AllowListEntry | undefined> {
  return db
    .selectFrom('allow_list_entries')
    .select(ENTRY_COLUMNS)
    .where('workgroup_id', '=', workgroupId)
    .where('id', '=', id)
    .where(inForce(now))
    .executeTakeFirst();
}

/** The entries of several workgroups in one query, oldest first; with `now`, only those in force. */
export async function listEntriesOfWorkgroups(
  db: Executor,
  workgroupIds: string[],
  now?: number,
): Promise<AllowListEntry[]> {
  if (workgroupIds.length === 0) return [];
  return entriesOfWorkgroups(db, workgroupIds, now).execute();
}

/** The query of listEntriesOfWorkgroups (the gateway's admission runs it by its fixed text). */
export function entriesOfWorkgroups(db: Executor, workgroupIds: string[], now?: number) {
  let query = db.selectFrom('allow_list_entries').select(ENTRY_COLUMNS).where('workgroup_id', 'in', workgroupIds);
  if (now !== undefined) query = query.where(inForce(now));
  return query.orderBy('created_at').orderBy('id');
}

export async function updateEntry(
  tx: Tx,
  entry: Pick<AllowListEntry, 'id' | 'org_id' | 'workgroup_id'>,
  changes: AllowListChanges,
  now: number,
): Promise<void> {
  await tx.db
    .updateTable('allow_list_entries')
    .set({ ...changes, ...(changes.cidr !== undefined ? boundsOf(changes.cidr) : {}), updated_at: now })
    .where('id', '=', entry.id)
    .execute();
  note(tx, entry, 'updated');
}

export async function deleteEntry(
  tx: Tx,
  entry: Pick<AllowListEntry, 'id' | 'org_id' | 'workgroup_id'>,
): Promise<void> {
  await tx.db.deleteFrom('allow_list_entries').where('id', '=', entry.id).execute();
  note(tx, entry, 'deleted');
}

/** Removes entries that expired at or before `now` (of one workgroup, or everywhere); returns how many. */
export async function deleteExpiredEntries(db: Executor, now: number, workgroupId?: string): Promise<number> {
  let query = db.deleteFrom('allow_list_entries').where('expires_at', '<=', now);
  if (workgroupId !== undefined) query = query.where('workgroup_id', '=', workgroupId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The workgroup's entries, as its row counts them (migration 0032), read for update: on
 * PostgreSQL the row stays locked to the end of the transaction, so a concurrent addition
 * waits for this one's count-then-insert. Once the expired entries are purged, these are the
 * entries in force. Undefined without the workgroup.
 */
export async function lockEntryCount(trx: Executor, workgroupId: string): Promise<number | undefined> {
  const row = await lockedForUpdate(
    trx,
    trx.selectFrom('workgroups').select('allow_list_entries').where('id', '=', workgroupId),
  ).executeTakeFirst();
  return row && Number(row.allow_list_entries);
}
