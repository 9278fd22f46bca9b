import type { Selectable } from 'kysely';
import type { ApiKeysTable } from '../schema.js';
import type { Executor, Store } from '../store.js';
import { countRows } from '../count-rows.js';
import { fixedRead } from '../fixed-read.js';
import type { KeyForAuthentication } from '../key-cache.js';

/** A key row with its scope lists parsed (the table keeps them as JSON text). */
export interface ApiKey extends Omit<Selectable<ApiKeysTable>, 'workgroup_ids' | 'workspace_ids'> {
  workgroup_ids: string[];
  workspace_ids: string[];
}

function fromRow(row: Selectable<ApiKeysTable>): ApiKey {
  return { ...row, workgroup_ids: JSON.parse(row.workgroup_ids), workspace_ids: JSON.parse(row.workspace_ids) };
}

export async function insertApiKey(db: Executor, key: ApiKey): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({
      ...key,
      workgroup_ids: JSON.stringify(key.workgroup_ids),
      workspace_ids: JSON.stringify(key.workspace_ids),
    })
    .execute();
}

type KeyForAuthenticationRow = Omit<KeyForAuthentication, 'workgroup_ids' | 'workspace_ids' | 'user_roles'> & {
  workgroup_ids: string;
  workspace_ids: string;
  user_roles: string | null;
};

function byHash(db: Executor, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('organisations', 'organisations.id', 'api_keys.org_id')
    .leftJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.org_id',
      'api_keys.key_name',
      'api_keys.role',
      'api_keys.workgroup_ids',
      'api_keys.workspace_ids',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'organisations.name as org_name',
      'organisations.tier as org_tier',
      'api_keys.user_id',
      'users.enabled as user_enabled',
      'users.roles as user_roles',
      'users.platform_admin',
    ])
    .where('api_keys.key_hash', '=', keyHash);
}

function parsed(row: KeyForAuthenticationRow | undefined): KeyForAuthentication | undefined {
  if (!row) return undefined;
  // Changed in place: the row is this lookup's own.
  const key = row as unknown as KeyForAuthentication;
  key.workgroup_ids = JSON.parse(row.workgroup_ids);
  key.workspace_ids = JSON.parse(row.workspace_ids);
  key.user_roles = row.user_roles === null ? [] : JSON.parse(row.user_roles);
  return key;
}

/** The lookup by hash as one fixed statement (fixed-read.ts). */
const keyRead = fixedRead('acacia_key_by_hash', (db, v) => byHash(db, v(0)));

/**
 * The key with this hash as committed now: without a promise where the store reads
 * synchronously (SQLite: an indexed lookup of a few microseconds) or keeps the key
 * (PostgreSQL, while it hears every change), else by query. The answer is shared: not to be
 * changed.
 */
export function findKeyByHash(
  store: Store,
  keyHash: string,
): KeyForAuthentication | undefined | Promise<KeyForAuthentication | undefined> {
  if (store.committedReads) return parsed(keyRead.firstNow(store, keyHash) as KeyForAuthenticationRow | undefined);
  // PostgreSQL: kept keys answer at once; others by the fixed statement.
  const cache = store.keyCache;
  const kept = cache?.get(keyHash);
  if (kept) return kept;
  const mark = cache?.mark();
  return keyRead.first(store, keyHash).then((row) => {
    const key = parsed(row);
    if (key) cache?.put(keyHash, key, mark);
    return key;
  });
}

/** This process's listeners to changes of keys, per store. */
const keyChangeListeners = new WeakMap<Store, Set<(id: string) => void>>();

/**
 * Calls listener with the key's (or organisation's) id after each change this process makes
 * through changeKey commits; returns the unsubscribe. Other processes' changes are announced
 * on PostgreSQL by the trigger of migration 0031 (KEYS_CHANNEL), and not at all on SQLite.
 */
export function onKeyChanged(store: Store, listener: (id: string) => void): () => void {
  let listeners = keyChangeListeners.get(store);
  if (!listeners) keyChangeListeners.set(store, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Makes a change to the key (or its organisation) and resolves once no process keeps the key
 * any more (PostgreSQL, at most a second later; see KeyCache.changeHeardEverywhere). This
 * process's listeners hear of it once it is made (on `store.db`, outside any transaction, it
 * has committed by then).
 */
export function changeKey<T>(store: Store, id: string, change: () => Promise<T>): Promise<T> {
  const announced = async () => {
    const result = await change();
    for (const listener of [...(keyChangeListeners.get(store) ?? [])]) listener(id);
    return result;
  };
  return store.keyCache ? store.keyCache.changeHeardEverywhere(id, announced) : announced();
}

export async function listActiveApiKeys(db: Executor, orgId: string): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(fromRow);
}

export async function findApiKeyById(db: Executor, orgId: string, id: string): Promise<ApiKey | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && fromRow(row);
}

export async function findActiveApiKeyByName(
  db: Executor,
  orgId: string,
  keyName: string,
): Promise<ApiKey | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('key_name', '=', keyName)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && fromRow(row);
}

export async function revokeApiKey(db: Executor, id: string, at: number): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).execute();
}

/** Keys of the organisation not revoked, expired ones included (they are still listed). */
export async function countActiveApiKeys(db: Executor, orgId: string): Promise<number> {
  return countRows(db.selectFrom('api_keys').where('org_id', '=', orgId).where('revoked_at', 'is', null));
}
