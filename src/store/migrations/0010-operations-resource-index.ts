import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * GET /operations?resource_id= filters on the organisation and the resource and orders by
 * (created_at, id). With the organisation index of 0009 in place, SQLite (no statistics
 * without ANALYZE) read the organisation's whole history through it; an index carrying the
 * order as well makes the resource's one the plain choice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('operations_resource').execute();
  await db.schema
    .createIndex('operations_resource_created')
    .on('operations')
    .columns(['resource_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('operations_resource_created').execute();
  await db.schema.createIndex('operations_resource').on('operations').columns(['resource_id', 'created_at']).execute();
}
