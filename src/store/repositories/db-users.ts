import type { Selectable } from 'kysely';
import type { DbUsersTable } from '../schema.js';
import type { Executor } from '../store.js';
import { countRows } from '../count-rows.js';

export type DbUser = Omit<Selectable<DbUsersTable>, 'username_key'>;

const columns = ['id', 'org_id', 'workspace_id', 'username', 'password_hash', 'created_at', 'updated_at'] as const;

export async function insertDbUser(db: Executor, user: DbUser): Promise<void> {
  await db
    .insertInto('db_users')
    .values({ ...user, username_key: user.username.toLowerCase() })
    .execute();
}

/** Usernames compare case-insensitively, as the database treats them. */
export async function findDbUser(db: Executor, workspaceId: string, username: string): Promise<DbUser | undefined> {
  return dbUserByName(db, workspaceId, username.toLowerCase()).executeTakeFirst();
}

/** The query of findDbUser, given the lower-cased name (the gateway's admission runs it by its fixed text). */
export function dbUserByName(db: Executor, workspaceId: string, usernameKey: string) {
  return db
    .selectFrom('db_users')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .where('username_key', '=', usernameKey);
}

export async function listDbUsers(db: Executor, workspaceId: string): Promise<DbUser[]> {
  return db
    .selectFrom('db_users')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('username_key')
    .execute();
}

export async function updateDbUserPassword(db: Executor, id: string, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('db_users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute();
}

export async function deleteDbUser(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('db_users').where('id', '=', id).execute();
}

export async function countDbUsers(db: Executor, workspaceId: string): Promise<number> {
  return countRows(db.selectFrom('db_users').where('workspace_id', '=', workspaceId));
}
