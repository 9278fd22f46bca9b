import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: takes Kysely<any> and imports nothing from the application.

/**
 * The people of an organisation. A user has an email (unique per organisation, compared by
 * `email_key`, its lower-case form; null for the owner made here), a name, `enabled`, its
 * role grants (`roles`: a JSON array of `{role, resource_id}`, resource_id null for the
 * organisation's roles) and `platform_admin`, a flag above organisations. An invited user
 * carries the SHA-256 of its invitation token (`invite_hash`, unique) until it accepts.
 *
 * Every API key belongs to a user (`api_keys.user_id`): each existing organisation gets an
 * enabled "owner" user holding org-admin, and its keys are given to it. On PostgreSQL a change
 * to a user is announced on `acacia_keys` with the user's id, as key changes are (0031), so
 * processes that keep keys drop them and a disabled user's keys are refused at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('org_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('email', 'varchar(320)')
    .addColumn('email_key', 'varchar(320)')
    .addColumn('first_name', 'varchar(128)', (col) => col.notNull().defaultTo(''))
    .addColumn('last_name', 'varchar(128)', (col) => col.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('is_owner', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('platform_admin', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('roles', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('invite_hash', 'varchar(64)')
    .addColumn('invited_at', 'bigint')
    .addColumn('invite_expires_at', 'bigint')
    .addColumn('accepted_at', 'bigint')
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  // Nulls (the owner's email, an accepted user's token) are distinct on both stores.
  await db.schema.createIndex('users_email').on('users').columns(['org_id', 'email_key']).unique().execute();
  await db.schema.createIndex('users_invite').on('users').columns(['invite_hash']).unique().execute();
  await db.schema.createIndex('users_org').on('users').columns(['org_id', 'created_at', 'id']).execute();
  await db.schema.alterTable('api_keys').addColumn('user_id', 'varchar(64)').execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id']).execute();

  const orgs: Array<{ id: string; created_at: number | string }> = await db
    .selectFrom('organisations')
    .select(['id', 'created_at'])
    .execute();
  for (const org of orgs) {
    const id = randomUUID();
    const at = Number(org.created_at);
    await db
      .insertInto('users')
      .values({
        id,
        org_id: org.id,
        first_name: 'Organisation',
        last_name: 'owner',
        enabled: 1,
        is_owner: 1,
        platform_admin: 0,
        roles: JSON.stringify([{ role: 'org-admin', resource_id: null }]),
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db.updateTable('api_keys').set({ user_id: id }).where('org_id', '=', org.id).execute();
  }

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The function of 0031: announces old.id, here the user's.
    await sql`create trigger users_announce_change after update or delete on users
      for each row execute function acacia_announce_key_change()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger users_announce_change on users`.execute(db);
  }
  await db.schema.dropIndex('api_keys_user').execute();
  await db.schema.alterTable('api_keys').dropColumn('user_id').execute();
  await db.schema.dropTable('users').execute();
}
