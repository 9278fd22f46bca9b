import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.
// Timestamps are epoch ms in bigint columns, booleans 0/1 integers.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('backups')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    // Deleting a workspace (the engine removes its row) removes its backups.
    .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('database_id', 'varchar(36)', (c) => c.notNull().references('databases.id'))
    .addColumn('is_automatic', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('tag', 'varchar(128)')
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    // The workspace's tg_version when the backup was taken.
    .addColumn('tg_version', 'varchar(32)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  // Lists and quota counts by workspace, in time order; sizes by database; retention by age.
  await db.schema
    .createIndex('backups_workspace_created')
    .on('backups')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('backups_database_status').on('backups').columns(['database_id', 'status']).execute();
  await db.schema.createIndex('backups_org').on('backups').column('org_id').execute();

  await db.schema
    .createTable('backup_schedules')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    // One schedule per workspace; it goes with the workspace.
    .addColumn('workspace_id', 'varchar(36)', (c) =>
      c.notNull().unique().references('workspaces.id').onDelete('cascade'),
    )
    .addColumn('schedule', 'varchar(128)', (c) => c.notNull())
    .addColumn('max_backup_files', 'integer', (c) => c.notNull())
    .addColumn('max_reserved_days', 'integer', (c) => c.notNull())
    .addColumn('max_retry', 'integer', (c) => c.notNull())
    .addColumn('pause', 'integer', (c) => c.notNull())
    // Null while paused; the scheduler claims a firing by compare-and-set on this column.
    .addColumn('next_run_at', 'bigint')
    .addColumn('last_run_at', 'bigint')
    .addColumn('last_run_outcome', 'varchar(16)')
    .addColumn('last_run_reason', 'text')
    .addColumn('last_backup_id', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('backup_schedules_next_run').on('backup_schedules').column('next_run_at').execute();
  await db.schema.createIndex('backup_schedules_org').on('backup_schedules').column('org_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('backup_schedules').execute();
  await db.schema.dropTable('backups').execute();
}
