import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.
// Timestamps are epoch ms in bigint columns, booleans 0/1 integers, lists and objects JSON text.

/** Columns the BYOC provisioner and API fill; all nullable, since public providers have none. */
const providerColumns: Array<[string, 'varchar(64)' | 'varchar(256)' | 'text' | 'integer']> = [
  ['name_key', 'varchar(64)'],
  ['api_tokens', 'text'],
  ['availability_zones', 'text'],
  ['cluster_enabled_log_types', 'text'],
  ['component_versions', 'text'],
  ['cluster_id', 'varchar(256)'],
  ['endpoint_service_name', 'varchar(256)'],
  ['last_error', 'text'],
  ['node_group_config', 'text'],
  ['options', 'text'],
  ['role_arn', 'varchar(256)'],
  ['role_external_id', 'varchar(256)'],
  ['security_group_id', 'varchar(64)'],
  ['vpc_id', 'varchar(64)'],
  ['subnet_id', 'text'],
  ['vpc_owned_by_tg', 'integer'],
  ['work_dir', 'varchar(256)'],
  ['x_test_env', 'varchar(256)'],
];

export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
  for (const [name, type] of providerColumns) {
    await db.schema.alterTable('cloud_providers').addColumn(name, type).execute();
  }
  // Private provider names are unique per organisation (case-insensitive); public rows have
  // no name_key and a null org_id, which unique indexes on both stores treat as distinct.
  await db.schema
    .createIndex('cloud_providers_org_name')
    .on('cloud_providers')
    .columns(['org_id', 'name_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('installed_addons')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('addons_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('version_number', 'integer', (c) => c.notNull())
    // One installed add-on per organisation and add-on; also serves lookups by organisation.
    .addUniqueConstraint('installed_addons_org_addon', ['org_id', 'addons_id'])
    .execute();

  await db.schema
    .createTable('addon_configs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('installed_addon_id', 'varchar(36)', (c) =>
      c.notNull().references('installed_addons.id').onDelete('cascade'),
    )
    .addColumn('config_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('config_value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('addon_configs_installed_name')
    .on('addon_configs')
    .columns(['installed_addon_id', 'config_name', 'created_at'])
    .execute();
  await db.schema.createIndex('addon_configs_org').on('addon_configs').column('org_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('addon_configs').execute();
  await db.schema.dropTable('installed_addons').execute();
  await db.schema.dropIndex('cloud_providers_org_name').execute();
  for (const [name] of [...providerColumns].reverse()) {
    await db.schema.alterTable('cloud_providers').dropColumn(name).execute();
  }
}
