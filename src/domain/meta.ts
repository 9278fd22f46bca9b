import type { MetaRecord } from '../schemas/meta.js';
import { bytesFromGb, newestVersion, replicasOf, sizesAllowed, type Catalog, type TgVersion } from './catalog.js';
import type { Principal } from './principal.js';
import { platforms } from '../schemas/catalog.js';
import { creatableVersions, defaultCreateVersion, upgradeTargets, versionImage } from './versions.js';

const versionShown = (v: TgVersion) => ({ ...v, image: versionImage(v.name) });

/**
 * The catalogs as the caller's organisation sees them at `now`. The versions are those it may
 * create workspaces at, or with `upgrade` those it may upgrade to (each workspace's own
 * running version narrows that further: POST …/upgrade says which).
 */
export function describeCatalog(catalog: Catalog, p: Principal, now: number, upgrade = false): MetaRecord {
  const limits = catalog.tiers[p.tier];
  const allowed = new Set(sizesAllowed(catalog, limits.max_size).map((s) => s.typeName));
  const sizes = sizesAllowed(catalog, limits.max_size);
  const versions = upgrade ? upgradeTargets(catalog, p, now) : creatableVersions(catalog, p, now);
  return {
    regions: platforms.flatMap((platform) =>
      catalog.regions[platform].map((name) => ({ name, description: `${platform} ${name}`, platform })),
    ),
    tgVersions: versions.map(versionShown),
    workspaceTypes: sizes.map((s) => ({
      typeName: s.typeName,
      cpu: String(s.cpu),
      memory: `${s.memory_gb}Gi`,
      partition: s.partition,
      ha: 1,
      ha_replicas: replicasOf(catalog, s.typeName, true),
    })),
    workspace_types: catalog.workspace_sizes.map((s) => ({
      typeName: s.typeName,
      cpu: String(s.cpu),
      memory: `${s.memory_gb}Gi`,
      partition: s.partition,
      max_topology_size_bytes: bytesFromGb(s.max_topology_gb),
      allowed: allowed.has(s.typeName),
    })),
    tg_versions: versions.map((v) => v.name),
    default_tg_version: defaultCreateVersion(catalog, p, now) ?? newestVersion(catalog),
    regions_by_platform: catalog.regions,
    addons: catalog.addons,
    tier: p.tier,
    tier_limits: limits,
    count_limits: catalog.limits,
  };
}
