import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Who asked for a workspace's scheduled upgrade and when, beside the version it waits to run
 * (`desired_tg_version`) and the window it is due in (`maintenance_due_at`): both null while
 * no upgrade waits. An upgrade already waiting when this runs keeps null in both.
 */
const columns = [
  ['upgrade_requested_at', 'bigint'],
  ['upgrade_requested_by', 'varchar(64)'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // One statement per column: SQLite adds one column per ALTER TABLE.
  for (const [name, type] of columns) await db.schema.alterTable('workspaces').addColumn(name, type).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of [...columns].reverse()) await db.schema.alterTable('workspaces').dropColumn(name).execute();
}
