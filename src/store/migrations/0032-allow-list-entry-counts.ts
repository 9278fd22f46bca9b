import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * Each workgroup keeps the number of its allow-list entries, kept by triggers on both stores
 * whatever path adds or removes one (a workgroup's deletion cascades, the engine purges
 * expired entries everywhere). Adding an entry removes the workgroup's expired ones first, so
 * the number is then the entries in force: the limit is checked by reading one row instead of
 * counting a list that may be long.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('workgroups')
    .addColumn('allow_list_entries', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`update workgroups set allow_list_entries =
    (select count(*) from allow_list_entries e where e.workgroup_id = workgroups.id)`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function acacia_count_allow_list_entries() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update workgroups set allow_list_entries = allow_list_entries + 1 where id = new.workgroup_id;
        else
          update workgroups set allow_list_entries = allow_list_entries - 1 where id = old.workgroup_id;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger allow_list_entries_counted after insert or delete on allow_list_entries
      for each row execute function acacia_count_allow_list_entries()`.execute(db);
  } else {
    await sql`create trigger allow_list_entries_counted_in after insert on allow_list_entries
      begin
        update workgroups set allow_list_entries = allow_list_entries + 1 where id = new.workgroup_id;
      end`.execute(db);
    await sql`create trigger allow_list_entries_counted_out after delete on allow_list_entries
      begin
        update workgroups set allow_list_entries = allow_list_entries - 1 where id = old.workgroup_id;
      end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger allow_list_entries_counted on allow_list_entries`.execute(db);
    await sql`drop function acacia_count_allow_list_entries()`.execute(db);
  } else {
    await sql`drop trigger allow_list_entries_counted_in`.execute(db);
    await sql`drop trigger allow_list_entries_counted_out`.execute(db);
  }
  await db.schema.alterTable('workgroups').dropColumn('allow_list_entries').execute();
}
