import { sql, type Kysely } from 'kysely';

// Frozen in time: migrations take Kysely<any> and import nothing from the application.
// Timestamps are epoch ms in bigint columns, booleans 0/1 integers, lists JSON text.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('tier', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('key_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('role', 'varchar(32)', (c) => c.notNull())
    .addColumn('workgroup_ids', 'text', (c) => c.notNull())
    .addColumn('workspace_ids', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('redacted_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  // A name may be reused once the key holding it is revoked.
  await db.schema
    .createIndex('api_keys_active_name')
    .on('api_keys')
    .columns(['org_id', 'key_name'])
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('cloud_providers')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('short_id', 'varchar(8)', (c) => c.notNull().unique())
    .addColumn('org_id', 'varchar(36)', (c) => c.references('organisations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('region', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)')
    .addColumn('version', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cloud_providers_org').on('cloud_providers').column('org_id').execute();

  await db.schema
    .createTable('workgroups')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('cloud_provider_id', 'varchar(36)', (c) => c.notNull().references('cloud_providers.id'))
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('region', 'varchar(64)', (c) => c.notNull())
    .addColumn('enable_allow_list', 'integer', (c) => c.notNull())
    .addColumn('enable_application_log', 'integer', (c) => c.notNull())
    .addColumn('encryption_method', 'varchar(16)')
    .addColumn('shared_storage', 'integer', (c) => c.notNull())
    .addColumn('creator', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addUniqueConstraint('workgroups_org_name', ['org_id', 'name_key'])
    .execute();
  await db.schema
    .createIndex('workgroups_org_created')
    .on('workgroups')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('workgroups_provider').on('workgroups').column('cloud_provider_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['org_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['idempotency_keys', 'workgroups', 'cloud_providers', 'api_keys', 'organisations']) {
    await db.schema.dropTable(table).execute();
  }
}
