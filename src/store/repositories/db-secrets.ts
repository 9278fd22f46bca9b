import { sql, type Selectable } from 'kysely';
import type { DbSecretsTable } from '../schema.js';
import type { Executor } from '../store.js';
import { countRows } from '../count-rows.js';

export type DbSecret = Selectable<DbSecretsTable>;

/** What authentication needs of the user a credential belongs to. */
export interface CredentialOwner {
  db_user_id: string;
  username: string;
  password_hash: string;
}

export async function insertSecret(db: Executor, secret: DbSecret): Promise<void> {
  await db.insertInto('db_secrets').values(secret).execute();
}

/** The secret with this digest in the workspace, with its user (the gateway's admission runs it by its fixed text). */
export function secretByHash(db: Executor, workspaceId: string, secretHash: string) {
  return db
    .selectFrom('db_secrets')
    .innerJoin('db_users', 'db_users.id', 'db_secrets.db_user_id')
    .selectAll('db_secrets')
    .select(['db_users.username', 'db_users.password_hash'])
    .where('db_secrets.workspace_id', '=', workspaceId)
    .where('db_secrets.secret_hash', '=', secretHash);
}

export async function listSecrets(db: Executor, userId: string): Promise<DbSecret[]> {
  return db
    .selectFrom('db_secrets')
    .selectAll()
    .where('db_user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findSecretByAlias(db: Executor, userId: string, alias: string): Promise<DbSecret | undefined> {
  return db
    .selectFrom('db_secrets')
    .selectAll()
    .where('db_user_id', '=', userId)
    .where('alias', '=', alias)
    .executeTakeFirst();
}

/**
 * The id of the user's oldest secret whose alias starts with `prefix`. Compared by substr, not
 * LIKE: LIKE ignores case on SQLite and reads `_` as a wildcard.
 */
export async function oldestGeneratedSecret(db: Executor, userId: string, prefix: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('db_secrets')
    .select('id')
    .where('db_user_id', '=', userId)
    .where(sql<string>`substr(alias, 1, ${sql.lit(prefix.length)})`, '=', prefix)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export async function countSecrets(db: Executor, userId: string): Promise<number> {
  return countRows(db.selectFrom('db_secrets').where('db_user_id', '=', userId));
}

/** Deletes the user's secrets named by id; their tokens go with them. Returns how many went. */
export async function deleteSecrets(db: Executor, userId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('db_secrets')
    .where('db_user_id', '=', userId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
