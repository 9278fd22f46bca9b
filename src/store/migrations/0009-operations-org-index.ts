import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/** GET /operations pages an organisation's operations in (created_at, id) order. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('operations_org_created')
    .on('operations')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('operations_org_created').execute();
}
