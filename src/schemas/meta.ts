import { Type, type Static } from '@sinclair/typebox';
import { AddonCatalogEntry, Platform, Tier, TierLimits, CountLimits } from './catalog.js';
import { Component } from './component.js';

export const WorkspaceSizeRecord = Type.Object({
  typeName: Type.String(),
  cpu: Type.String(),
  memory: Type.String(),
  partition: Type.Integer(),
  max_topology_size_bytes: Type.Integer(),
  allowed: Type.Boolean({ description: "within the organisation's tier" }),
});

const RegionList = Type.Array(Type.String());

/** GET /workspaces/meta: the catalogs and the caller's tier limits. */
export const MetaRecord = Component(
  'MetaRecord',
  Type.Object(
    {
      regions: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), platform: Platform }), {
        description: 'every region of every platform (the real service lists {name, description})',
      }),
      tgVersions: Type.Array(Type.Object({ name: Type.String(), image: Type.String() }), {
        description: 'the versions a workspace may run, oldest first',
      }),
      workspaceTypes: Type.Array(
        Type.Object({
          typeName: Type.String(),
          cpu: Type.String(),
          memory: Type.String(),
          partition: Type.Integer(),
          ha: Type.Integer({ description: 'replicas of a workspace of this size without high availability' }),
          ha_replicas: Type.Integer({
            description: 'replicas with high availability: 3 up to TG-8, 2 from TG-16',
          }),
        }),
        { description: "the sizes within the organisation's tier" },
      ),
      workspace_types: Type.Array(WorkspaceSizeRecord, { description: 'every size, with whether the tier allows it' }),
      tg_versions: Type.Array(Type.String()),
      default_tg_version: Type.String(),
      regions_by_platform: Type.Object({ aws: RegionList, azure: RegionList, gcp: RegionList }),
      addons: Type.Array(AddonCatalogEntry),
      tier: Tier,
      tier_limits: TierLimits,
      count_limits: CountLimits,
    },
    { description: "The catalogs as the caller's organisation sees them." },
  ),
);
export type MetaRecord = Static<typeof MetaRecord>;
