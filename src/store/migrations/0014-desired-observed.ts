import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Desired and observed state of a workspace kept apart. `size` and `enable_ha` become what
 * the workspace runs at, written from the driver's report when a step is done; the new
 * `desired_size` and `desired_enable_ha` hold what a running update asks for (null when
 * nothing is asked beyond what runs). The other columns are observed state a driver reports:
 * `endpoint` (host:port the gateway proxies to), `snapshot_id` (the snapshot a read-only
 * workspace serves) and `data_observed_at` (when the vertex and edge counts were last reported;
 * null: never, and the counts mean nothing).
 *
 * An update in flight when this runs wrote its target into `size` already; it completes
 * from there as before.
 */
const columns = [
  ['desired_size', 'varchar(32)'],
  ['desired_enable_ha', 'integer'],
  ['endpoint', 'varchar(255)'],
  ['snapshot_id', 'varchar(128)'],
  ['data_observed_at', 'bigint'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // One statement per column: SQLite adds one column per ALTER TABLE.
  for (const [name, type] of columns) await db.schema.alterTable('workspaces').addColumn(name, type).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of [...columns].reverse()) await db.schema.alterTable('workspaces').dropColumn(name).execute();
}
