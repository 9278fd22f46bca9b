import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Pooled workgroups: each hand-over of a warm workgroup to an organisation, kept so the
 * organisation's acquisitions in the last hour can be counted against its cap. The workgroup
 * may be deleted later; its id stays as a record of what was handed over, not a reference.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pool_acquisitions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('workgroup_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('acquired_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pool_acquisitions_org')
    .on('pool_acquisitions')
    .columns(['org_id', 'acquired_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pool_acquisitions').execute();
}
