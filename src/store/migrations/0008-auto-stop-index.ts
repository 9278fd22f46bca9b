import { sql, type Kysely, type SqlBool } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Indexes the instant an Active workspace with auto-stop becomes idle enough to pause. The
 * reconciler asks for those on every engine tick; through workspaces_status it read every
 * Active workspace each time (10,000 rows at 10,000 workspaces). The expression and the
 * predicate are written exactly as the queries in repositories/workspaces.ts write them:
 * both stores match an expression or partial index only against the same text.
 *
 * workspaces_status served only those queries. It goes: left in place, SQLite (which has no
 * statistics unless ANALYZE runs) prefers its equality on status over this index's range.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('workspaces_auto_stop_at')
    .on('workspaces')
    .expression(sql`(last_activity_at + auto_stop_minutes * 60000)`)
    .where(sql<SqlBool>`status = 'Active' and auto_stop_minutes > 0`)
    .execute();
  await db.schema.dropIndex('workspaces_status').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('workspaces_status').on('workspaces').columns(['status', 'last_activity_at']).execute();
  await db.schema.dropIndex('workspaces_auto_stop_at').execute();
}
