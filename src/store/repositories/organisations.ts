import { lockRows } from '../capabilities.js';
import type { Executor } from '../store.js';
import { nameKey } from '../name-key.js';
import { countRows } from '../count-rows.js';

export interface Organisation {
  id: string;
  name: string;
  tier: string;
  created_at: number;
}

export async function findOrganisationByName(db: Executor, name: string): Promise<Organisation | undefined> {
  return db
    .selectFrom('organisations')
    .select(['id', 'name', 'tier', 'created_at'])
    .where('name_key', '=', nameKey(name))
    .executeTakeFirst();
}

export async function countOrganisations(db: Executor): Promise<number> {
  return countRows(db.selectFrom('organisations'));
}

/** Inserts the organisation unless one of that name exists; returns whether it inserted. */
export async function insertOrganisation(db: Executor, org: Organisation): Promise<boolean> {
  const result = await db
    .insertInto('organisations')
    .values({ ...org, name_key: nameKey(org.name) })
    .onConflict((oc) => oc.column('name_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateOrganisationTier(db: Executor, id: string, tier: string): Promise<void> {
  await db.updateTable('organisations').set({ tier }).where('id', '=', id).execute();
}

/**
 * Serialises quota checks of one organisation: on PostgreSQL the row lock is held until the
 * transaction ends; SQLite runs one write transaction at a time anyway.
 */
export async function lockOrganisation(trx: Executor, orgId: string): Promise<void> {
  await lockRows(trx, trx.selectFrom('organisations').select('id').where('id', '=', orgId));
}

export async function findOrganisationById(db: Executor, id: string): Promise<Organisation | undefined> {
  return db
    .selectFrom('organisations')
    .select(['id', 'name', 'tier', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The organisation's profile columns (migration 0038) with its record. */
export interface OrganisationProfile extends Organisation {
  display_name: string | null;
  logo_url: string | null;
  feature_flags: string | null;
  delinquent_since: number | null;
}

export async function findOrganisationProfile(db: Executor, id: string): Promise<OrganisationProfile | undefined> {
  return db
    .selectFrom('organisations')
    .select(['id', 'name', 'tier', 'created_at', 'display_name', 'logo_url', 'feature_flags', 'delinquent_since'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateOrganisationProfile(
  db: Executor,
  id: string,
  changes: { display_name?: string | null; logo_url?: string | null },
): Promise<void> {
  await db.updateTable('organisations').set(changes).where('id', '=', id).execute();
}
