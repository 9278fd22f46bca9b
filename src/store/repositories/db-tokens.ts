import type { Selectable } from 'kysely';
import type { DbTokensTable } from '../schema.js';
import type { Executor } from '../store.js';
import type { CredentialOwner } from './db-secrets.js';
import { countRows } from '../count-rows.js';

export type DbToken = Selectable<DbTokensTable>;

export async function insertToken(db: Executor, token: DbToken): Promise<void> {
  await db.insertInto('db_tokens').values(token).execute();
}

/** The token with this digest in the workspace, with its user. */
export async function findTokenByHash(
  db: Executor,
  workspaceId: string,
  tokenHash: string,
): Promise<(DbToken & CredentialOwner) | undefined> {
  return db
    .selectFrom('db_tokens')
    .innerJoin('db_users', 'db_users.id', 'db_tokens.db_user_id')
    .selectAll('db_tokens')
    .select(['db_users.username', 'db_users.password_hash'])
    .where('db_tokens.workspace_id', '=', workspaceId)
    .where('db_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** The user's tokens among these digests. */
export async function findUserTokens(db: Executor, userId: string, tokenHashes: string[]): Promise<DbToken[]> {
  if (tokenHashes.length === 0) return [];
  return db
    .selectFrom('db_tokens')
    .selectAll()
    .where('db_user_id', '=', userId)
    .where('token_hash', 'in', tokenHashes)
    .execute();
}

/** Tokens of the user still in force: not expired and issued under the current password. */
export async function countLiveTokens(
  db: Executor,
  userId: string,
  now: number,
  passwordStamp: string,
): Promise<number> {
  return countRows(
    db
      .selectFrom('db_tokens')
      .where('db_user_id', '=', userId)
      .where('expires_at', '>', now)
      .where('password_stamp', '=', passwordStamp),
  );
}

/** Deletes the user's tokens that can never be used again: expired, or issued under another password. */
export async function pruneDeadTokens(db: Executor, userId: string, now: number, passwordStamp: string): Promise<void> {
  await db
    .deleteFrom('db_tokens')
    .where('db_user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('password_stamp', '!=', passwordStamp)]))
    .execute();
}

export async function setTokenExpiry(db: Executor, id: string, expiresAt: number): Promise<void> {
  await db.updateTable('db_tokens').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function deleteTokens(db: Executor, userId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('db_tokens')
    .where('db_user_id', '=', userId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
