import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * PostgreSQL only: every change to an API key (its revocation) or to an organisation (its
 * tier) is announced on the channel `acacia_keys` with the key's or the organisation's id,
 * delivered to listeners when the change commits. Processes that keep keys they have seen,
 * to authenticate without a round trip, drop them on it. A trigger rather than the
 * application's own notify, so a change made by any path (an operator's SQL included) is
 * announced.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create function acacia_announce_key_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('acacia_keys', old.id);
  return null;
end $$`.execute(db);
  for (const table of ['api_keys', 'organisations']) {
    await sql`create trigger ${sql.raw(`${table}_announce_change`)} after update or delete on ${sql.table(table)}
      for each row execute function acacia_announce_key_change()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of ['api_keys', 'organisations']) {
    await sql`drop trigger ${sql.raw(`${table}_announce_change`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function acacia_announce_key_change()`.execute(db);
}
