import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('repeat', 'varchar(16)', (c) => c.notNull())
    .addColumn('date', 'varchar(10)')
    .addColumn('repeat_on', 'varchar(64)')
    .addColumn('time', 'varchar(5)', (c) => c.notNull())
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('workspace_type_name', 'varchar(32)')
    // The next occurrence; claimed by compare-and-set, null once a one-off schedule has run.
    .addColumn('next_run_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('schedules_workspace')
    .on('schedules')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('schedules_due').on('schedules').column('next_run_at').execute();
  await db.schema.createIndex('schedules_org').on('schedules').column('org_id').execute();

  // One row per occurrence: the unique key is a second guard that it fires once.
  await db.schema
    .createTable('schedule_runs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('schedule_id', 'varchar(36)', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('occurrence_at', 'bigint', (c) => c.notNull())
    .addColumn('fired_at', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('operation_id', 'varchar(36)')
    .addUniqueConstraint('schedule_runs_occurrence', ['schedule_id', 'occurrence_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('schedule_runs').execute();
  await db.schema.dropTable('schedules').execute();
}
