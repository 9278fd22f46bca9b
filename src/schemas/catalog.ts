import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './helpers.js';
import { BillingCatalog } from './pricing.js';

export const platforms = ['aws', 'azure', 'gcp'] as const;
export const tiers = ['free', 'paid', 'premium', 'enterprise'] as const;

export const WorkspaceSize = Type.Object({
  typeName: Type.String({ minLength: 1 }),
  cpu: Type.Integer({ minimum: 1 }),
  memory_gb: Type.Integer({ minimum: 1 }),
  partition: Type.Integer({ minimum: 1 }),
  // 1 PiB at most, so a graph size in bytes stays exact in a Number and a bigint column.
  max_topology_gb: Type.Integer({ minimum: 1, maximum: 1_048_576 }),
});

export const AddonCatalogEntry = Type.Object({
  addons_id: Type.String({ minLength: 1 }),
  unique_name: Type.String({ minLength: 1 }),
  title: Type.String(),
  is_free: Type.Boolean(),
  description: Type.String(),
});

export const TierLimits = Type.Object({
  max_size: Type.String({ description: 'largest workspace size type allowed' }),
  rw_workspaces: Type.Integer({ minimum: 0 }),
  ro_workspaces: Type.Integer({ minimum: 0 }),
  memory_gb: Type.Integer({ minimum: 0 }),
  manual_backups: Type.Integer({ minimum: 0, description: 'per RW workspace' }),
  auto_backups: Type.Integer({ minimum: 0, description: 'per RW workspace' }),
  byoc: Type.Boolean({ description: 'bring-your-own-cloud providers allowed' }),
});

const Strict = { additionalProperties: false } as const;

const VersionName = Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+$', maxLength: 32 });

/** Release channels: LTS and stable releases as the vendor's lifecycle policy names them, previews ahead of them. */
export const versionChannels = ['stable', 'lts', 'preview'] as const;
// Literals, not StringEnum: the config file is checked with TypeBox's own checker, which knows them.
const Channel = Type.Union(versionChannels.map((c) => Type.Literal(c)));

/** One version workspaces may run (the real service's TGVersion), as the catalog holds it. */
export const TgVersion = Type.Object(
  {
    name: VersionName,
    channel: Channel,
    /** ISO date or time; from then on the version is neither created nor upgraded to. */
    end_of_life: Type.Optional(Type.String({ minLength: 10, maxLength: 32 })),
    allow_create: Type.Boolean(),
    allow_upgrade: Type.Boolean(),
    /** Running versions that cannot move to this one in place. */
    incompatible_upgrades_from: Type.Array(VersionName, { maxItems: 256 }),
    /** A custom build: only these organisations (by id or name) see it; empty for every organisation. */
    orgs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 256 }),
  },
  Strict,
);
export type TgVersion = Static<typeof TgVersion>;

/** A version in the config file: its name alone (stable, allowed everywhere), or the record with defaults. */
export const TgVersionInput = Type.Union([
  VersionName,
  Type.Object(
    {
      name: VersionName,
      channel: Type.Optional(Channel),
      end_of_life: Type.Optional(Type.String({ minLength: 10, maxLength: 32 })),
      allow_create: Type.Optional(Type.Boolean()),
      allow_upgrade: Type.Optional(Type.Boolean()),
      incompatible_upgrades_from: Type.Optional(Type.Array(VersionName, { maxItems: 256 })),
      orgs: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 256 })),
    },
    Strict,
  ),
]);
export type TgVersionInput = Static<typeof TgVersionInput>;

/** How many of each child resource one parent may hold, on every tier (403 Quota-Exceed past it). */
export const CountLimits = Type.Object(
  {
    workgroups_per_organisation: Type.Integer({ minimum: 0, description: 'workgroups of one organisation' }),
    databases_per_workgroup: Type.Integer({ minimum: 0, description: 'databases of one workgroup, used or not' }),
    cloud_providers_per_organisation: Type.Integer({
      minimum: 0,
      description: 'BYOC cloud providers of one organisation',
    }),
    allow_list_entries_per_workgroup: Type.Integer({ minimum: 0, description: 'allow-list entries in force' }),
    configs_per_addon: Type.Integer({ minimum: 0, description: 'configs of one installed add-on' }),
    schedules_per_workspace: Type.Integer({ minimum: 0, description: 'workspace schedules (operation 7)' }),
    api_keys_per_organisation: Type.Integer({ minimum: 0, description: 'API keys not revoked, expired ones included' }),
    db_users_per_workspace: Type.Integer({ minimum: 0, description: 'database users of one workspace' }),
    webhooks_per_organisation: Type.Integer({ minimum: 0, description: 'webhooks of one organisation' }),
  },
  Strict,
);
export type CountLimits = Static<typeof CountLimits>;

/** The catalogs served by GET /workspaces/meta; every part may be replaced by ACACIA_CONFIG. */
export const Catalog = Type.Object(
  {
    workspace_sizes: Type.Array(WorkspaceSize, { minItems: 1 }),
    regions: Type.Object(
      { aws: Type.Array(Type.String()), azure: Type.Array(Type.String()), gcp: Type.Array(Type.String()) },
      Strict,
    ),
    tg_versions: Type.Array(TgVersion, { minItems: 1 }),
    addons: Type.Array(AddonCatalogEntry),
    tiers: Type.Object({ free: TierLimits, paid: TierLimits, premium: TierLimits, enterprise: TierLimits }, Strict),
    limits: CountLimits,
    /** Prices, and the grace periods of an organisation out of credit (docs/billing.md). */
    billing: BillingCatalog,
  },
  Strict,
);
export type Catalog = Static<typeof Catalog>;

/** Contents of the ACACIA_CONFIG file: any catalog part, replaced whole, except `limits`, merged limit by limit. */
export const ConfigFile = Type.Partial(
  Type.Object(
    {
      ...Catalog.properties,
      tg_versions: Type.Array(TgVersionInput, { minItems: 1 }),
      limits: Type.Partial(CountLimits, Strict),
    },
    Strict,
  ),
  Strict,
);
export type ConfigFile = Static<typeof ConfigFile>;

export const Platform = StringEnum(platforms);
export type Platform = Static<typeof Platform>;
export const Tier = StringEnum(tiers);
export type Tier = Static<typeof Tier>;
