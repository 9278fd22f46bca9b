import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Add-on requests: a member of an organisation asks its admins for an add-on, by name and
 * with a message. Kept per organisation so its admins can read them; listed by creation.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('addon_requests')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('addon_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('addons_id', 'varchar(36)')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('addon_requests_org_created')
    .on('addon_requests')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('addon_requests').execute();
}
