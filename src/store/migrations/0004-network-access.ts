import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('allow_list_entries')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    // Entries belong to their workgroup and go with it.
    .addColumn('workgroup_id', 'varchar(36)', (c) => c.notNull().references('workgroups.id').onDelete('cascade'))
    // Normalised (network address, RFC 5952), so equal ranges are equal text.
    .addColumn('cidr', 'varchar(64)', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('allow_list_entries_workgroup_cidr', ['workgroup_id', 'cidr'])
    .execute();
  await db.schema
    .createIndex('allow_list_entries_workgroup_created')
    .on('allow_list_entries')
    .columns(['workgroup_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('allow_list_entries_expires').on('allow_list_entries').column('expires_at').execute();
  await db.schema.createIndex('allow_list_entries_org').on('allow_list_entries').column('org_id').execute();

  await db.schema
    .createTable('db_users')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    // Deleting a workspace (the engine removes its row) removes its users.
    .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('username_key', 'varchar(64)', (c) => c.notNull())
    // scrypt$N$r$p$salt$hash: the parameters travel with the hash.
    .addColumn('password_hash', 'varchar(256)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('db_users_workspace_username', ['workspace_id', 'username_key'])
    .execute();
  await db.schema.createIndex('db_users_org').on('db_users').column('org_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['db_users', 'allow_list_entries']) {
    await db.schema.dropTable(table).execute();
  }
}
