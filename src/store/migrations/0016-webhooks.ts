import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Webhooks of an organisation and their deliveries. A delivery is one event for one webhook,
 * written with the event; its key (webhook_id, event_id) makes a second insert of the same
 * pair impossible. `next_attempt_at` is when it is due, or, while a process sends it, when
 * that process's lease ends (so an abandoned send is due again then): the engine finds due
 * deliveries, and its idle probe their earliest time, through (state, next_attempt_at).
 *
 * The deliveries of an event are written by a trigger on events: in the event's own
 * transaction, and without a statement more per write transaction (most organisations have
 * no webhook, and every write writes events).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('org_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('url', 'varchar(2048)', (col) => col.notNull())
    // ",type,type," (null: every type), so a type matches with one substring test.
    .addColumn('event_types', 'text')
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('webhooks_org').on('webhooks').columns(['org_id', 'created_at', 'id']).execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('webhook_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('event_id', 'bigint', (col) => col.notNull())
    .addColumn('org_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('event_type', 'varchar(64)', (col) => col.notNull())
    .addColumn('state', 'varchar(16)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_owner', 'varchar(128)')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('webhook_deliveries_pk', ['webhook_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_time').on('webhook_deliveries').columns(['created_at']).execute();
  if (postgres) {
    await sql`create function acacia_webhook_deliveries() returns trigger language plpgsql as $$
      begin
        insert into webhook_deliveries
          (webhook_id, event_id, org_id, event_type, state, attempts, next_attempt_at, created_at)
        select w.id, new.id, new.org_id, new.type, 'pending', 0, new.time, new.time from webhooks w
        where w.org_id = new.org_id
          and (w.event_types is null or position(',' || new.type || ',' in w.event_types) > 0);
        return null;
      end $$`.execute(db);
    await sql`create trigger events_webhook_deliveries after insert on events
      for each row execute function acacia_webhook_deliveries()`.execute(db);
  } else {
    await sql`create trigger events_webhook_deliveries after insert on events
      begin
        insert into webhook_deliveries
          (webhook_id, event_id, org_id, event_type, state, attempts, next_attempt_at, created_at)
        select w.id, new.id, new.org_id, new.type, 'pending', 0, new.time, new.time from webhooks w
        where w.org_id = new.org_id
          and (w.event_types is null or instr(w.event_types, ',' || new.type || ',') > 0);
      end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists events_webhook_deliveries${sql.raw(
    db.getExecutor().adapter instanceof PostgresAdapter ? ' on events' : '',
  )}`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`drop function if exists acacia_webhook_deliveries()`.execute(db);
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
