import type { Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * The organisation's profile as the real service keeps it: a display name and a logo
 * (null = none set), its feature flags (a JSON array of `{name, enabled}`; null = none), and
 * `delinquent_since` (epoch ms; null while its account is in good standing), which billing
 * sets when credits run out and clears when credit is added.
 */
const columns = [
  ['display_name', 'text'],
  ['logo_url', 'text'],
  ['feature_flags', 'text'],
  ['delinquent_since', 'bigint'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // One statement per column: SQLite adds one column per ALTER TABLE.
  for (const [name, type] of columns) await db.schema.alterTable('organisations').addColumn(name, type).execute();
  await db.schema.createIndex('organisations_delinquent').on('organisations').columns(['delinquent_since']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('organisations_delinquent').execute();
  for (const [name] of [...columns].reverse()) await db.schema.alterTable('organisations').dropColumn(name).execute();
}
