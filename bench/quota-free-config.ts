import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultCatalog, mergeCatalog, type Catalog } from '../src/domain/catalog.js';
import type { ConfigFile } from '../src/schemas/catalog.js';

/** The enterprise tier without practical workspace or memory limits, so an organisation can hold thousands. */
export const quotaFreeConfig: ConfigFile = {
  tiers: {
    ...defaultCatalog.tiers,
    enterprise: { ...defaultCatalog.tiers.enterprise, rw_workspaces: 1_000_000, ro_workspaces: 1_000_000, memory_gb: 1_000_000_000 },
  },
};

export const quotaFreeCatalog: Catalog = mergeCatalog(defaultCatalog, quotaFreeConfig);

/** Writes the ACACIA_CONFIG file into `dir` and returns its path. */
export function writeQuotaFreeConfig(dir: string): string {
  const file = path.join(dir, 'bench-config.json');
  writeFileSync(file, JSON.stringify(quotaFreeConfig));
  return file;
}
