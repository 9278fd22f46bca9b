import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.
// Timestamps are epoch ms in bigint columns. Secrets and tokens are credentials: only their
// SHA-256 digests are kept (they are long random strings, so a plain digest cannot be reversed).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('db_secrets')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    // Deleting the workspace (the engine removes its row) or the user removes the secret.
    .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('db_user_id', 'varchar(36)', (c) => c.notNull().references('db_users.id').onDelete('cascade'))
    .addColumn('alias', 'varchar(64)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    // First and last three characters around "****", as a later listing shows the secret.
    .addColumn('masked', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('db_secrets_user_alias', ['db_user_id', 'alias'])
    // Authentication finds a secret by its digest within the workspace it was sent to.
    .addUniqueConstraint('db_secrets_workspace_hash', ['workspace_id', 'secret_hash'])
    .execute();
  await db.schema.createIndex('db_secrets_org').on('db_secrets').column('org_id').execute();

  await db.schema
    .createTable('db_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('db_user_id', 'varchar(36)', (c) => c.notNull().references('db_users.id').onDelete('cascade'))
    // The secret it was requested with (null: with the password); dropping the secret revokes it.
    .addColumn('secret_id', 'varchar(36)', (c) => c.references('db_secrets.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('graph', 'varchar(64)')
    // Digest of the user's password hash when the token was issued: a new password revokes it.
    .addColumn('password_stamp', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('db_tokens_workspace_hash', ['workspace_id', 'token_hash'])
    .execute();
  // Counting and pruning a user's tokens; the secret's tokens go with it.
  await db.schema.createIndex('db_tokens_user_expires').on('db_tokens').columns(['db_user_id', 'expires_at']).execute();
  await db.schema.createIndex('db_tokens_secret').on('db_tokens').column('secret_id').execute();
  await db.schema.createIndex('db_tokens_org').on('db_tokens').column('org_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('db_tokens').execute();
  await db.schema.dropTable('db_secrets').execute();
}
