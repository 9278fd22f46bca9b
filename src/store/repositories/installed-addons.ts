import type { Selectable } from 'kysely';
import type { AddonConfigsTable, InstalledAddonsTable } from '../schema.js';
import type { Executor } from '../store.js';
import { countRows } from '../count-rows.js';

export interface InstalledAddon extends Omit<Selectable<InstalledAddonsTable>, 'enabled'> {
  enabled: boolean;
}

export type AddonConfig = Selectable<AddonConfigsTable>;

function fromRow(row: Selectable<InstalledAddonsTable>): InstalledAddon {
  return { ...row, enabled: row.enabled === 1 };
}

export async function insertInstalledAddon(db: Executor, addon: InstalledAddon): Promise<void> {
  await db
    .insertInto('installed_addons')
    .values({ ...addon, enabled: addon.enabled ? 1 : 0 })
    .execute();
}

export async function findInstalledAddon(db: Executor, orgId: string, id: string): Promise<InstalledAddon | undefined> {
  const row = await db
    .selectFrom('installed_addons')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && fromRow(row);
}

export async function findInstalledAddonByAddon(
  db: Executor,
  orgId: string,
  addonsId: string,
): Promise<InstalledAddon | undefined> {
  const row = await db
    .selectFrom('installed_addons')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('addons_id', '=', addonsId)
    .executeTakeFirst();
  return row && fromRow(row);
}

export async function listInstalledAddons(db: Executor, orgId: string): Promise<InstalledAddon[]> {
  const rows = await db
    .selectFrom('installed_addons')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(fromRow);
}

/** Sets `enabled` only if the row still has the version read; false when it changed meanwhile. */
export async function setInstalledAddonEnabled(
  db: Executor,
  addon: InstalledAddon,
  enabled: boolean,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('installed_addons')
    .set({ enabled: enabled ? 1 : 0, updated_at: now, version_number: addon.version_number + 1 })
    .where('id', '=', addon.id)
    .where('version_number', '=', addon.version_number)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertAddonConfig(db: Executor, config: AddonConfig): Promise<void> {
  await db.insertInto('addon_configs').values(config).execute();
}

export async function listAddonConfigsByName(
  db: Executor,
  installedAddonId: string,
  name: string,
): Promise<AddonConfig[]> {
  return db
    .selectFrom('addon_configs')
    .selectAll()
    .where('installed_addon_id', '=', installedAddonId)
    .where('config_name', '=', name)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Sets the config's value if it belongs to the installed add-on: the config as it now is, or undefined. */
export async function updateAddonConfig(
  db: Executor,
  installedAddonId: string,
  id: string,
  value: string,
): Promise<AddonConfig | undefined> {
  return db
    .updateTable('addon_configs')
    .set({ config_value: value })
    .where('installed_addon_id', '=', installedAddonId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the config if it belongs to the installed add-on; false when there was none. */
export async function deleteAddonConfig(db: Executor, installedAddonId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('addon_configs')
    .where('installed_addon_id', '=', installedAddonId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function countAddonConfigs(db: Executor, installedAddonId: string): Promise<number> {
  return countRows(db.selectFrom('addon_configs').where('installed_addon_id', '=', installedAddonId));
}
