import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Request-level chaos rules (fault injection): each belongs to an organisation, matches an
 * endpoint, a route pattern or a region, does one thing (fail at a rate, add latency, or
 * take the region down) and ends at `expires_at`. Kept in the store so every process of a
 * deployment applies the same rules. The error rate is kept in millionths, an integer on
 * both stores. `hits` counts the requests and steps a rule acted on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chaos_rules')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('endpoint', 'varchar(64)')
    .addColumn('method', 'varchar(8)')
    .addColumn('path', 'varchar(256)')
    .addColumn('platform', 'varchar(16)')
    .addColumn('region', 'varchar(64)')
    .addColumn('error_rate_ppm', 'integer')
    .addColumn('status', 'integer')
    .addColumn('error_type', 'varchar(32)')
    .addColumn('message', 'varchar(512)')
    .addColumn('latency_min_ms', 'integer')
    .addColumn('latency_max_ms', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('chaos_rules_org').on('chaos_rules').columns(['org_id', 'created_at']).execute();
  await db.schema.createIndex('chaos_rules_expires').on('chaos_rules').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chaos_rules').execute();
}
