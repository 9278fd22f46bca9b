import type { Selectable, Updateable } from 'kysely';
import type { CloudProvidersTable } from '../schema.js';
import { lockedForUpdate } from '../capabilities.js';
import type { Executor } from '../store.js';
import { nameKey } from '../name-key.js';
import { countRows } from '../count-rows.js';
import { keyset, type CursorPosition } from '../pagination.js';

/** Sizes of one node group of a BYOC cluster. */
export interface NodeGroup {
  min_size: number;
  max_size: number;
  overprovisioning_factor: number;
}

export interface NodeGroupConfig {
  ng_16?: NodeGroup;
  ng_32?: NodeGroup;
  ng_48?: NodeGroup;
  ng_64?: NodeGroup;
  ng_system?: NodeGroup;
  prefetch_image_list?: string[];
}

export interface ProviderOptions {
  account_id?: string;
  secure_connection?: boolean;
}

const jsonColumns = [
  'api_tokens',
  'availability_zones',
  'cluster_enabled_log_types',
  'component_versions',
  'node_group_config',
  'options',
  'subnet_id',
] as const;

/** A cloud provider as the domain sees it: JSON columns parsed, booleans as booleans. */
export interface CloudProviderRow extends Omit<
  Selectable<CloudProvidersTable>,
  (typeof jsonColumns)[number] | 'vpc_owned_by_tg' | 'name_key'
> {
  api_tokens: string[] | null;
  availability_zones: string[] | null;
  cluster_enabled_log_types: string[] | null;
  /** Deployed component → version. */
  component_versions: Record<string, string> | null;
  node_group_config: NodeGroupConfig | null;
  options: ProviderOptions | null;
  subnet_id: string[] | null;
  vpc_owned_by_tg: boolean | null;
}

export type CloudProviderChanges = Partial<
  Omit<
    CloudProviderRow,
    'id' | 'short_id' | 'org_id' | 'type' | 'platform' | 'region' | 'created_at' | 'updated_at' | 'version_number'
  >
>;

export function providerFromRow(row: Selectable<CloudProvidersTable>): CloudProviderRow {
  const { name_key: _nameKey, ...rest } = row;
  const parsed = Object.fromEntries(jsonColumns.map((c) => [c, row[c] === null ? null : JSON.parse(row[c])]));
  return {
    ...rest,
    ...parsed,
    vpc_owned_by_tg: row.vpc_owned_by_tg === null ? null : row.vpc_owned_by_tg === 1,
  } as CloudProviderRow;
}

function toColumns(changes: CloudProviderChanges): Updateable<CloudProvidersTable> {
  const columns: Updateable<CloudProvidersTable> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if ((jsonColumns as readonly string[]).includes(key))
      (columns as Record<string, unknown>)[key] = value === null ? null : JSON.stringify(value);
    else if (key === 'vpc_owned_by_tg') columns.vpc_owned_by_tg = value === null ? null : value ? 1 : 0;
    else (columns as Record<string, unknown>)[key] = value;
  }
  if (typeof changes.name === 'string') columns.name_key = nameKey(changes.name);
  return columns;
}

/** Providers an organisation can see: the public ones and its own. */
export async function listVisibleProviders(db: Executor, orgId: string): Promise<CloudProviderRow[]> {
  const rows = await db
    .selectFrom('cloud_providers')
    .selectAll()
    .where((eb) => eb.or([eb('org_id', 'is', null), eb('org_id', '=', orgId)]))
    .orderBy('type')
    .orderBy('platform')
    .orderBy('region')
    .orderBy('id')
    .execute();
  return rows.map(providerFromRow);
}

/** The service-owned providers (no organisation's), one per platform and region of the catalog. */
export async function listPublicProviders(db: Executor): Promise<CloudProviderRow[]> {
  const rows = await db
    .selectFrom('cloud_providers')
    .selectAll()
    .where('org_id', 'is', null)
    .orderBy('platform')
    .orderBy('region')
    .orderBy('id')
    .execute();
  return rows.map(providerFromRow);
}

/** How many cloud providers the organisation registered (its private ones). */
export async function countOwnProviders(db: Executor, orgId: string): Promise<number> {
  return countRows(db.selectFrom('cloud_providers').where('org_id', '=', orgId));
}

export async function findVisibleProvider(
  db: Executor,
  orgId: string,
  id: string,
): Promise<CloudProviderRow | undefined> {
  const row = await db
    .selectFrom('cloud_providers')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('org_id', 'is', null), eb('org_id', '=', orgId)]))
    .executeTakeFirst();
  return row && providerFromRow(row);
}

/**
 * Reads a provider to change it in this transaction, locked on PostgreSQL until the transaction ends (see
 * lockWorkspaceById).
 */
export async function lockProviderById(trx: Executor, id: string): Promise<CloudProviderRow | undefined> {
  const query = trx.selectFrom('cloud_providers').selectAll().where('id', '=', id);
  const row = await lockedForUpdate(trx, query).executeTakeFirst();
  return row && providerFromRow(row);
}

export async function findProviderById(db: Executor, id: string): Promise<CloudProviderRow | undefined> {
  const row = await db.selectFrom('cloud_providers').selectAll().where('id', '=', id).executeTakeFirst();
  return row && providerFromRow(row);
}

export async function findProvidersByIds(db: Executor, ids: string[]): Promise<CloudProviderRow[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('cloud_providers').selectAll().where('id', 'in', ids).execute()).map(providerFromRow);
}

export type NewCloudProvider = Pick<
  CloudProviderRow,
  | 'id'
  | 'short_id'
  | 'org_id'
  | 'name'
  | 'type'
  | 'platform'
  | 'region'
  | 'status'
  | 'created_at'
  | 'updated_at'
  | 'version_number'
> &
  CloudProviderChanges;

export async function insertProvider(db: Executor, provider: NewCloudProvider): Promise<void> {
  const { id, short_id, org_id, type, platform, region, created_at, updated_at, version_number, ...changes } = provider;
  await db
    .insertInto('cloud_providers')
    .values({
      id,
      short_id,
      org_id,
      type,
      platform,
      region,
      created_at,
      updated_at,
      version_number,
      created_by: null,
      version: null,
      ...toColumns(changes),
    } as Selectable<CloudProvidersTable>)
    .execute();
}

/** Applies the changes only if the row still has the version read; false when it changed meanwhile. */
export async function updateProvider(
  db: Executor,
  provider: Pick<CloudProviderRow, 'id' | 'version_number'>,
  changes: CloudProviderChanges,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('cloud_providers')
    .set({ ...toColumns(changes), updated_at: now, version_number: provider.version_number + 1 })
    .where('id', '=', provider.id)
    .where('version_number', '=', provider.version_number)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteProvider(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('cloud_providers').where('id', '=', id).execute();
}

/** Names of the workgroups deployed on the provider (any organisation, though only its own can). */
export async function workgroupsUsingProvider(db: Executor, providerId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('workgroups')
    .select('name')
    .where('cloud_provider_id', '=', providerId)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

export interface PublicProviderSeed {
  id: string;
  short_id: string;
  name: string;
  platform: string;
  region: string;
}

/**
 * Makes the public providers match the catalog: inserts the missing ones, keeps the
 * existing ones Active, and marks the ones no longer in the catalog Inactive (workgroups
 * may still reference them, so they are not deleted).
 */
export async function syncPublicProviders(db: Executor, seeds: PublicProviderSeed[], now: number): Promise<void> {
  for (const seed of seeds) {
    await db
      .insertInto('cloud_providers')
      .values({
        ...seed,
        org_id: null,
        type: 'public',
        status: 'Active',
        created_by: null,
        version: null,
        created_at: now,
        updated_at: now,
        version_number: 1,
      })
      .onConflict((oc) => oc.column('id').doUpdateSet({ status: 'Active' }))
      .execute();
  }
  let retire = db
    .updateTable('cloud_providers')
    .set({ status: 'Inactive' })
    .where('type', '=', 'public')
    .where('status', '=', 'Active');
  if (seeds.length > 0)
    retire = retire.where(
      'id',
      'not in',
      seeds.map((s) => s.id),
    );
  await retire.execute();
}

/** A page of every organisation's providers and the public ones, in creation order (limit + 1 rows: see toPage). */
export async function listAllProviders(
  db: Executor,
  limit: number,
  after: CursorPosition | undefined,
): Promise<CloudProviderRow[]> {
  const rows = await keyset(db.selectFrom('cloud_providers').selectAll(), limit, after).execute();
  return rows.map(providerFromRow);
}
