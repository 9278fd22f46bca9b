import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Expiring workgroups: `expires_at` (epoch ms; null = never) is when the engine removes the
 * workgroup and everything in it; `expired_at` is when it started to, set once by whichever
 * process claimed it (null while the workgroup lives). The index finds the next one due.
 */
const columns = ['expires_at', 'expired_at'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // One statement per column: SQLite adds one column per ALTER TABLE.
  for (const name of columns) await db.schema.alterTable('workgroups').addColumn(name, 'bigint').execute();
  await db.schema.createIndex('workgroups_expires').on('workgroups').columns(['expires_at']).execute();
  await db.schema.createIndex('workgroups_expired').on('workgroups').columns(['expired_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('workgroups_expired').execute();
  await db.schema.dropIndex('workgroups_expires').execute();
  for (const name of [...columns].reverse()) await db.schema.alterTable('workgroups').dropColumn(name).execute();
}
