import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Who runs a workspace's local runtime (the local driver's data-plane process): the Acacia
 * process that owns it (`owner`, with its host and process id), the child's pid and loopback
 * port, and a lease the owner renews while it is alive (epoch ms on the engine clock). Another
 * process takes a workspace over once the lease has expired. Deleting the workspace removes it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workspace_runtimes')
    .addColumn('workspace_id', 'varchar(36)', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('owner', 'varchar(128)', (c) => c.notNull())
    .addColumn('owner_host', 'varchar(255)', (c) => c.notNull())
    .addColumn('owner_pid', 'integer', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('host', 'varchar(64)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    // What the process was started with (store file, version, heap): a change restarts it.
    .addColumn('shape', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workspace_runtimes_owner').on('workspace_runtimes').column('owner').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('workspace_runtimes').execute();
}
