import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * The event log: one row per change, written in the transaction that makes the change. `id`
 * only grows (an identity on PostgreSQL, AUTOINCREMENT on SQLite, so an id is never reused
 * after the newest rows are pruned); streams resume after it. Readers page an organisation's
 * events by (org_id, id); retention deletes by time, hence the second index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('events')
    .addColumn('id', postgres ? 'bigint' : 'integer', (col) =>
      postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
    )
    .addColumn('org_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('resource_kind', 'varchar(32)', (col) => col.notNull())
    .addColumn('resource_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('workgroup_id', 'varchar(64)')
    .addColumn('workspace_id', 'varchar(64)')
    .addColumn('type', 'varchar(64)', (col) => col.notNull())
    .addColumn('time', 'bigint', (col) => col.notNull())
    .addColumn('data', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('events_org_id').on('events').columns(['org_id', 'id']).execute();
  await db.schema.createIndex('events_time').on('events').columns(['time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events').execute();
}
