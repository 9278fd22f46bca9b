import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB, EventsTable } from '../schema.js';
import { hasAdvisoryLocksAndNotify } from '../capabilities.js';
import type { Executor } from '../store.js';

export type EventRow = Omit<EventsTable, 'id'> & { id: number };
export type NewEvent = Omit<EventsTable, 'id'>;

/** The advisory-lock class of event inserts (the second key is the organisation's hash). */
const EVENTS_LOCK_CLASS = 0x0ac1e7;

/** The channel a PostgreSQL commit with events notifies (payload: the organisation id). */
export const EVENTS_CHANNEL = 'acacia_events';

/**
 * Inserts events in the caller's transaction, in order. On PostgreSQL an identity value is
 * taken at insert but becomes visible at commit, so a reader could see id 8 while 7 is still
 * in flight and, resuming after 8, lose 7 for good. The insert therefore first takes a
 * transaction-level advisory lock per organisation: event-writing transactions of one
 * organisation run their inserts and COMMIT one after the other, so ids of an organisation
 * become visible in order, and a stream (which reads one organisation) never passes a gap
 * that fills later. The writer runs just before COMMIT (src/store/transactions.ts), so the
 * lock is held only that long and is the last lock a transaction takes: it cannot deadlock
 * against row locks. SQLite has one writer at a time already. `pg_notify` in the same
 * transaction reaches every listening process at commit.
 */
export async function insertEvents(db: Executor, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  const orgs = [...new Set(events.map((e) => e.org_id))].sort();
  const locking = hasAdvisoryLocksAndNotify(db);
  if (locking && orgs.length === 1) {
    // The usual case, one statement: the one-row lock-and-notify relation is joined before any
    // row is produced, so the lock is held before the identity values are drawn.
    await sql`insert into events (org_id, resource_kind, resource_id, workgroup_id, workspace_id, type, time, data)
      select v.org_id, v.resource_kind, v.resource_id, v.workgroup_id, v.workspace_id, v.type, v.time, v.data
      from (select pg_advisory_xact_lock(${EVENTS_LOCK_CLASS}, hashtext(${orgs[0]})),
          pg_notify(${EVENTS_CHANNEL}, ${orgs[0]})) locked,
        rows from (jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as (org_id text, resource_kind text,
          resource_id text, workgroup_id text, workspace_id text, type text, time bigint, data text))
          with ordinality as v(org_id, resource_kind, resource_id, workgroup_id, workspace_id, type, time, data, n)
      order by v.n`.execute(db);
    return;
  }
  if (locking) {
    for (const orgId of orgs) {
      await sql`select pg_advisory_xact_lock(${EVENTS_LOCK_CLASS}, hashtext(${orgId}))`.execute(db);
      await sql`select pg_notify(${EVENTS_CHANNEL}, ${orgId})`.execute(db);
    }
  }
  await db
    .insertInto('events')
    .values([...events])
    .execute();
}

export interface EventFilter {
  orgId: string;
  /** Events after this id. */
  after: number;
  limit: number;
  /**
   * Bytes of `data` a read returns at most, but for its first event: the read stops before
   * the event that would pass it.
   */
  budgetBytes: number;
  resourceId?: string | undefined;
  workgroupId?: string | undefined;
  types?: readonly string[] | undefined;
  /** Only events of these workgroups (a key scoped to workgroups). */
  workgroupIds?: readonly string[] | undefined;
  /** Only events of these workspaces (a key scoped to workspaces). */
  workspaceIds?: readonly string[] | undefined;
}

/** Events read, oldest first, and whether more follow them. */
export interface EventRows {
  rows: EventRow[];
  /** The read stopped at its limit or its byte budget: events after the last one may match. */
  more: boolean;
}

/**
 * An organisation's events after an id, oldest first, through the (org_id, id) index, at
 * most `limit` of them and about `budgetBytes` of data. One statement: the matching events'
 * ids come with the bytes of data before each in the read (a window sum of octet_length,
 * which both stores answer from the value's header without reading it), and only those
 * starting within the budget bring their data; those past it come back without, to say the
 * read was cut.
 */
export async function listEvents(db: Executor, f: EventFilter): Promise<EventRows> {
  let matching = db
    .selectFrom('events')
    .select([
      'id',
      sql<
        number | string | null
      >`sum(octet_length(data)) over (order by id rows between unbounded preceding and 1 preceding)`.as('before'),
    ])
    .where('org_id', '=', f.orgId)
    .where('id', '>', f.after);
  if (f.resourceId !== undefined) matching = matching.where('resource_id', '=', f.resourceId);
  if (f.workgroupId !== undefined) matching = matching.where('workgroup_id', '=', f.workgroupId);
  if (f.types !== undefined) matching = matching.where('type', 'in', [...f.types]);
  if (f.workgroupIds !== undefined)
    matching = f.workgroupIds.length
      ? matching.where('workgroup_id', 'in', [...f.workgroupIds])
      : matching.where(sql<SqlBool>`1 = 0`);
  if (f.workspaceIds !== undefined)
    matching = f.workspaceIds.length
      ? matching.where('workspace_id', 'in', [...f.workspaceIds])
      : matching.where(sql<SqlBool>`1 = 0`);
  const found = await db
    .selectFrom(matching.orderBy('id').limit(f.limit).as('m'))
    .leftJoin('events as e', (join) =>
      join.onRef('e.id', '=', 'm.id').on(sql<SqlBool>`coalesce(m.before, 0) < ${f.budgetBytes}`),
    )
    .select([
      'm.id as position',
      'e.id',
      'e.org_id',
      'e.resource_kind',
      'e.resource_id',
      'e.workgroup_id',
      'e.workspace_id',
      'e.type',
      'e.time',
      'e.data',
    ])
    .orderBy('m.id')
    .execute();
  const rows = found.flatMap(({ position: _position, ...row }) => (row.id === null ? [] : [row as EventRow]));
  return { rows, more: found.length === f.limit || rows.length < found.length };
}

/** The newest event id of all organisations (0 when there is none): what a poll compares. */
export async function newestEventId(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** An organisation's newest event id (0 when it has none). */
export async function newestEventIdOf(db: Executor, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Deletes events older than `before` (through the time index); returns how many went. */
export async function pruneEvents(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('events').where('time', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Events by id (those still kept). */
export async function findEventsByIds(db: Executor, ids: readonly number[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  return (await db
    .selectFrom('events')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute()) as EventRow[];
}
