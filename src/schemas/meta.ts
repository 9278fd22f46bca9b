import { Type, type Static } from '@sinclair/typebox';
import { AddonCatalogEntry, Platform, Tier, TierLimits, CountLimits } from './catalog.js';
import { Component, Ref } from './component.js';
import { StringEnum } from './helpers.js';
import { versionChannels } from './catalog.js';

/** A version as GET /workspaces/meta shows it: the real service's TGVersion. */
export const TgVersionRecord = Component(
  'TgVersionRecord',
  Type.Object(
    {
      name: Type.String(),
      image: Type.String(),
      channel: StringEnum(versionChannels),
      end_of_life: Type.Optional(Type.String({ description: 'ISO time; from then on not created nor upgraded to' })),
      allow_create: Type.Boolean(),
      allow_upgrade: Type.Boolean(),
      incompatible_upgrades_from: Type.Array(Type.String(), {
        description: 'running versions that cannot be upgraded to this one in place',
      }),
      orgs: Type.Array(Type.String(), { description: 'for a custom build, the organisations that see it' }),
    },
    { description: 'A version workspaces may run (TGVersion).' },
  ),
);
export type TgVersionRecord = Static<typeof TgVersionRecord>;

export const MetaQuery = Type.Object({
  upgrade: Type.Optional(
    StringEnum(['true', 'false'] as const, {
      description: 'true: tgVersions lists the versions the organisation may upgrade to instead',
    }),
  ),
});
export type MetaQuery = Static<typeof MetaQuery>;

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
      tgVersions: Type.Array(Ref(TgVersionRecord), {
        description:
          'oldest first: the versions a new workspace may run; with ?upgrade=true, the versions the ' +
          'organisation may upgrade to',
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
      tg_versions: Type.Array(Type.String(), { description: 'the names of tgVersions' }),
      default_tg_version: Type.String({
        description: 'what a new database runs when none is asked for: the newest outside the preview channel',
      }),
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
