import { Type, type Static } from '@sinclair/typebox';
import { AddonCatalogEntry, TierLimits } from './catalog.js';

export const WorkspaceSizeRecord = Type.Object({
  typeName: Type.String(),
  cpu: Type.String(),
  memory: Type.String(),
  partition: Type.Integer(),
  max_topology_size_bytes: Type.Integer(),
  allowed: Type.Boolean({ description: "within the organisation's tier" }),
});

/** GET /workspaces/meta: the catalogs and the caller's tier limits. */
export const MetaRecord = Type.Object({
  workspace_types: Type.Array(WorkspaceSizeRecord),
  tg_versions: Type.Array(Type.String()),
  default_tg_version: Type.String(),
  regions: Type.Object({ aws: Type.Array(Type.String()), azure: Type.Array(Type.String()), gcp: Type.Array(Type.String()) }),
  addons: Type.Array(AddonCatalogEntry),
  tier: Type.String(),
  tier_limits: TierLimits,
});
export type MetaRecord = Static<typeof MetaRecord>;
