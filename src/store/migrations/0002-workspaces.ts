import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('databases')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('workgroup_id', 'varchar(36)', (c) => c.notNull().references('workgroups.id'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('tg_version', 'varchar(32)', (c) => c.notNull())
    // The one RW workspace a database may ever have; kept after that workspace is deleted.
    .addColumn('rw_workspace_id', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addUniqueConstraint('databases_workgroup_name', ['workgroup_id', 'name_key'])
    .execute();
  await db.schema
    .createIndex('databases_workgroup_created')
    .on('databases')
    .columns(['workgroup_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('databases_org').on('databases').column('org_id').execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('workgroup_id', 'varchar(36)', (c) => c.notNull().references('workgroups.id'))
    .addColumn('database_id', 'varchar(36)', (c) => c.notNull().references('databases.id'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('is_rw', 'integer', (c) => c.notNull())
    .addColumn('size', 'varchar(32)', (c) => c.notNull())
    .addColumn('enable_ha', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('condition_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('err_message', 'text')
    .addColumn('failed_operation_id', 'varchar(36)')
    .addColumn('tg_version', 'varchar(32)', (c) => c.notNull())
    .addColumn('desired_tg_version', 'varchar(32)')
    .addColumn('update_strategy', 'varchar(32)', (c) => c.notNull())
    .addColumn('auto_upgrade_state', 'varchar(16)', (c) => c.notNull())
    .addColumn('maintenance_due_at', 'bigint')
    .addColumn('last_maintenance', 'bigint')
    .addColumn('auto_stop_minutes', 'integer', (c) => c.notNull())
    .addColumn('enable_auto_start', 'integer', (c) => c.notNull())
    .addColumn('mw_day_of_week', 'integer', (c) => c.notNull())
    .addColumn('mw_hour_of_day', 'integer', (c) => c.notNull())
    .addColumn('mw_interval_weeks', 'integer', (c) => c.notNull())
    .addColumn('mw_time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('addons', 'text', (c) => c.notNull())
    .addColumn('agent_config', 'text')
    .addColumn('solution_catalog_id', 'varchar(64)')
    .addColumn('x_test_env', 'varchar(256)')
    .addColumn('graph_topology_size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('vertex_count', 'bigint', (c) => c.notNull())
    .addColumn('edge_count', 'bigint', (c) => c.notNull())
    .addColumn('refresh_status', 'varchar(16)')
    .addColumn('refresh_message', 'text')
    .addColumn('snapshot_time', 'bigint')
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .addColumn('creator', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addUniqueConstraint('workspaces_workgroup_name', ['workgroup_id', 'name_key'])
    .execute();
  await db.schema
    .createIndex('workspaces_workgroup_created')
    .on('workspaces')
    .columns(['workgroup_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('workspaces_database').on('workspaces').column('database_id').execute();
  await db.schema.createIndex('workspaces_org').on('workspaces').column('org_id').execute();
  await db.schema.createIndex('workspaces_status').on('workspaces').columns(['status', 'last_activity_at']).execute();
  await db.schema.createIndex('workspaces_maintenance_due').on('workspaces').column('maintenance_due_at').execute();

  await db.schema
    .createTable('operations')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('resource_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('resource_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('kind', 'varchar(48)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('progress', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('operations_due').on('operations').columns(['state', 'run_at']).execute();
  await db.schema.createIndex('operations_lease').on('operations').columns(['state', 'lease_expires_at']).execute();
  await db.schema.createIndex('operations_resource').on('operations').columns(['resource_id', 'created_at']).execute();

  // The shared manual clock (ACACIA_CLOCK=manual): every process reads the same time.
  await db.schema
    .createTable('manual_clock')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('now', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['manual_clock', 'operations', 'workspaces', 'databases']) {
    await db.schema.dropTable(table).execute();
  }
}
