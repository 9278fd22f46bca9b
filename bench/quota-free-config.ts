import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultCatalog, mergeCatalog, type Catalog } from '../src/domain/catalog.js';
import type { ConfigFile } from '../src/schemas/catalog.js';

/**
 * The enterprise tier without practical workspace or memory limits, and no practical count
 * limits, so an organisation can hold thousands of workspaces, allow-list entries and keys.
 */
export const quotaFreeConfig: ConfigFile = {
  tiers: {
    ...defaultCatalog.tiers,
    enterprise: {
      ...defaultCatalog.tiers.enterprise,
      rw_workspaces: 1_000_000,
      ro_workspaces: 1_000_000,
      memory_gb: 1_000_000_000,
    },
  },
  limits: {
    allow_list_entries_per_workgroup: 1_000_000,
    configs_per_addon: 1_000_000,
    schedules_per_workspace: 1_000_000,
    api_keys_per_organisation: 1_000_000,
    db_users_per_workspace: 1_000_000,
  },
};

export const quotaFreeCatalog: Catalog = mergeCatalog(defaultCatalog, quotaFreeConfig);

/** Writes the ACACIA_CONFIG file into `dir` and returns its path. */
export function writeQuotaFreeConfig(dir: string): string {
  const file = path.join(dir, 'bench-config.json');
  writeFileSync(file, JSON.stringify(quotaFreeConfig));
  return file;
}
