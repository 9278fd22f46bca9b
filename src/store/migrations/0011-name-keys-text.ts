import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/** Every case-insensitive name key; the names themselves stay varchar(64). */
const keyed = ['organisations', 'workgroups', 'workspaces', 'databases', 'cloud_providers'];

/**
 * A 64-character name can lower-case to 128 characters (`İ` becomes `i` and a combining
 * dot), which varchar(64) refused on PostgreSQL while SQLite, which does not enforce
 * lengths, took it. The keys become text on PostgreSQL; SQLite needs no change.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of keyed) {
    await db.schema
      .alterTable(table)
      .alterColumn('name_key', (c) => c.setDataType('text'))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of keyed) {
    await db.schema
      .alterTable(table)
      .alterColumn('name_key', (c) => c.setDataType('varchar(64)'))
      .execute();
  }
}
