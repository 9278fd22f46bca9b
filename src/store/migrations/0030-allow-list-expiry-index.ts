import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Adding an entry first removes the workgroup's expired ones (`workgroup_id = ? and
 * expires_at <= ?`) and counts those in force. With an index on expires_at alone, or on
 * (workgroup_id, created_at), both read the workgroup's whole list; (workgroup_id,
 * expires_at) finds the expired ones directly and counts from the index alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('allow_list_entries_workgroup_expires')
    .on('allow_list_entries')
    .columns(['workgroup_id', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('allow_list_entries_workgroup_expires').execute();
}
