import { randomUUID } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import { dialectOf } from '../dialect-of.js';
import { migrations } from '../migrations/index.js';
import type { DB } from '../schema.js';
import type { Executor } from '../store.js';
import { nameKey } from '../name-key.js';
import { ownerRow } from './users.js';

/**
 * The tables that hold the instance's state, parents before children (foreign keys point
 * back only), so inserting in this order and deleting in the reverse order never breaks a
 * reference. Left out: idempotency_keys (stored answers a retry within the day replays, tied
 * to the keys that sent them), workspace_runtimes (which process serves a workspace now:
 * a fact about running processes, not state) and manual_clock (the clock never goes back).
 */
export const stateTables = [
  'organisations',
  'users',
  'api_keys',
  'cloud_providers',
  'workgroups',
  'databases',
  'workspaces',
  'operations',
  'allow_list_entries',
  'db_users',
  'db_secrets',
  'db_tokens',
  'installed_addons',
  'addon_configs',
  'addon_requests',
  'backups',
  'backup_schedules',
  'schedules',
  'schedule_runs',
  'events',
  'webhooks',
  'webhook_deliveries',
  'billing_accounts',
  'credit_ledger',
  'pool_acquisitions',
] as const satisfies readonly (keyof DB)[];

export type StateTable = (typeof stateTables)[number];

/**
 * Tables emptied along with the state though no snapshot carries them. The meter's hours and
 * states start again from the state loaded: hours before it are not charged again.
 */
const transientTables = [
  'idempotency_keys',
  'workspace_runtimes',
  'metering_periods',
  'metering_state',
] as const satisfies readonly (keyof DB)[];

/** What survives emptying the instance: one organisation and one of its keys, by name. */
export interface Kept {
  organisation: string;
  key: string;
}

/**
 * Empties the instance, but for the kept organisation and key and the public cloud providers
 * (the catalog's, which every instance has). Children first, so no reference is left dangling
 * on a store that checks them at each statement. Run inside the caller's transaction.
 */
export async function emptyInstance(db: Executor, kept?: Kept): Promise<void> {
  for (const table of transientTables) await db.deleteFrom(table).execute();
  for (const table of [...stateTables].reverse()) {
    if (table === 'organisations' && kept) {
      await db.deleteFrom('organisations').where('name_key', '<>', nameKey(kept.organisation)).execute();
    } else if (table === 'api_keys' && kept) {
      await db
        .deleteFrom('api_keys')
        .where((eb) =>
          eb.or([
            eb('key_name', '<>', kept.key),
            eb(
              'org_id',
              'not in',
              eb.selectFrom('organisations').select('id').where('name_key', '=', nameKey(kept.organisation)),
            ),
          ]),
        )
        .execute();
    } else if (table === 'users' && kept) {
      // The kept key's user stays with it (the keys are emptied before their users).
      await db
        .deleteFrom('users')
        .where((eb) =>
          eb.not(
            eb.exists(eb.selectFrom('api_keys').select('api_keys.id').whereRef('api_keys.user_id', '=', 'users.id')),
          ),
        )
        .execute();
    } else if (table === 'cloud_providers' && kept) {
      await db.deleteFrom('cloud_providers').where('org_id', 'is not', null).execute();
    } else await db.deleteFrom(table).execute();
  }
}

/** The migration the store's schema is at: a snapshot records it, and one from a later schema is refused. */
export const schemaLevel: string = Object.keys(migrations).at(-1)!;

/** Whether a snapshot made at `level` can be loaded here: the same schema or an earlier one. */
export function knownSchemaLevel(level: string): boolean {
  return Object.hasOwn(migrations, level);
}

/** A row as a snapshot carries it: column name to value (binary values as Buffers). */
export type Row = Record<string, unknown>;

/** The columns that order a table's rows and page through them (its primary key). */
function orderOf(table: StateTable): readonly string[] {
  if (table === 'webhook_deliveries') return ['webhook_id', 'event_id'];
  return table === 'billing_accounts' ? ['org_id'] : ['id'];
}

/**
 * One page of a table's rows in primary-key order, after the row `after` (keyset paging: each
 * page costs its own size, however far into the table). Read through the caller's
 * transaction, so every page sees the same state.
 */
export async function tablePage(db: Executor, table: StateTable, after: Row | undefined, limit: number) {
  const order = orderOf(table);
  // The table is one of several, each of its own row type: the query is built untyped.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let query: any = db.selectFrom(table).selectAll();
  if (after) {
    const key = order.map((c) => after[c]);
    query =
      order.length === 1
        ? query.where(order[0], '>', key[0])
        : // eslint-disable-next-line @typescript-eslint/no-explicit-any
          query.where((eb: any) => eb(eb.refTuple(order[0], order[1]), '>', eb.tuple(key[0], key[1])));
  }
  for (const column of order) query = query.orderBy(column);
  return (await query.limit(limit).execute()) as Row[];
}

/** Inserts rows of one table as they are, ids and all (a snapshot's load, into an emptied store). */
export async function insertRows(db: Executor, table: StateTable, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  if (table === 'events' && dialectOf(db) === 'postgres') {
    // The event id is an identity the store always generates: keep the saved ids.
    const columns = Object.keys(rows[0]!);
    const names = sql.join(columns.map((c) => sql.ref(c)));
    const values = sql.join(rows.map((row) => sql`(${sql.join(columns.map((c) => row[c] ?? null))})`));
    await sql`insert into events (${names}) overriding system value values ${values}`.execute(db);
    return;
  }
  // The rows are of whichever table: checked by the store itself, which refuses a wrong one.
  await db
    .insertInto(table as 'organisations')
    .values(rows as unknown as Insertable<DB['organisations']>[])
    .execute();
}

/**
 * What a load sets right after inserting the saved rows: the workgroups' counts of allow-list
 * entries (their triggers counted the inserted entries on top of the saved count), the
 * operations' leases (held by processes of the instance that saved them), and on PostgreSQL
 * the event id's sequence, so new events follow the loaded ones.
 */
export async function afterLoad(db: Executor): Promise<void> {
  await sql`update workgroups set allow_list_entries =
    (select count(*) from allow_list_entries e where e.workgroup_id = workgroups.id)`.execute(db);
  await db.updateTable('operations').set({ lease_owner: null, lease_expires_at: null }).execute();
  await db.updateTable('webhook_deliveries').set({ lease_owner: null }).execute();
  await giveKeysOwners(db);
  if (dialectOf(db) === 'postgres')
    await sql`select setval(pg_get_serial_sequence('events', 'id'),
      greatest((select coalesce(max(id), 0) from events), nextval(pg_get_serial_sequence('events', 'id'))))`.execute(
      db,
    );
}

/**
 * A snapshot saved before users (migration 0039) holds keys of no user: as the migration did,
 * each organisation without an owner gets one, holding org-admin, and its keys without a
 * user are given to its owner.
 */
async function giveKeysOwners(db: Executor): Promise<void> {
  const orphans = await db
    .selectFrom('organisations')
    .select(['id', 'created_at'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('users')
            .select('users.id')
            .whereRef('users.org_id', '=', 'organisations.id')
            .where('is_owner', '=', 1),
        ),
      ),
    )
    .execute();
  for (const org of orphans) {
    const id = randomUUID();
    await db
      .insertInto('users')
      .values(ownerRow(id, org.id, Number(org.created_at)))
      .execute();
    await db
      .updateTable('api_keys')
      .set({ user_id: id })
      .where('org_id', '=', org.id)
      .where('user_id', 'is', null)
      .execute();
  }
}

/**
 * Makes every read of the transaction see one state, whatever commits meanwhile: PostgreSQL
 * at repeatable read (the transaction's first statement); SQLite's transaction holds the write
 * lock already.
 */
export async function readConsistently(db: Executor): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`set transaction isolation level repeatable read`.execute(db);
}
