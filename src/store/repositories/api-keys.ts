import type { Selectable } from 'kysely';
import type { ApiKeysTable } from '../schema.js';
import type { Executor } from '../store.js';

/** A key row with its scope lists parsed (the table keeps them as JSON text). */
export interface ApiKey extends Omit<Selectable<ApiKeysTable>, 'workgroup_ids' | 'workspace_ids'> {
  workgroup_ids: string[];
  workspace_ids: string[];
}

/** An API key with its organisation, as authentication needs it. */
export interface ApiKeyWithOrg extends ApiKey {
  org_name: string;
  org_tier: string;
}

function fromRow(row: Selectable<ApiKeysTable>): ApiKey {
  return { ...row, workgroup_ids: JSON.parse(row.workgroup_ids), workspace_ids: JSON.parse(row.workspace_ids) };
}

export async function insertApiKey(db: Executor, key: ApiKey): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({ ...key, workgroup_ids: JSON.stringify(key.workgroup_ids), workspace_ids: JSON.stringify(key.workspace_ids) })
    .execute();
}

export async function findApiKeyByHash(db: Executor, keyHash: string): Promise<ApiKeyWithOrg | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('organisations', 'organisations.id', 'api_keys.org_id')
    .selectAll('api_keys')
    .select(['organisations.name as org_name', 'organisations.tier as org_tier'])
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { org_name, org_tier, ...key } = row;
  return { ...fromRow(key), org_name, org_tier };
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

export async function findActiveApiKeyByName(db: Executor, orgId: string, keyName: string): Promise<ApiKey | undefined> {
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
