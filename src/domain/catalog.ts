import { v5 as uuidv5 } from 'uuid';
import {
  platforms,
  type Catalog,
  type ConfigFile,
  type Platform,
  type TgVersion,
  type TgVersionInput,
} from '../schemas/catalog.js';
import { defaultBilling } from './pricing.js';

export type { Catalog, Platform, TgVersion };
export type { Tier } from '../schemas/catalog.js';

const GiB = 1024 ** 3;

function size(typeName: string, cpu: number, memory_gb: number, partition: number, max_topology_gb: number) {
  return { typeName, cpu, memory_gb, partition, max_topology_gb };
}

/** Seed catalogs: the managed service's public size table, regions, versions, add-ons and tiers. */
export const defaultCatalog: Catalog = {
  workspace_sizes: [
    size('TG-00', 2, 16, 1, 8),
    size('TG-0', 4, 32, 1, 16),
    size('TG-1', 8, 64, 1, 32),
    size('TG-2', 16, 128, 1, 64),
    size('TG-4', 32, 256, 1, 128),
    size('TG-6', 48, 384, 1, 192),
    size('TG-8', 64, 512, 1, 256),
    size('TG-16', 128, 1024, 2, 512),
    size('TG-24', 192, 1536, 3, 768),
    size('TG-32', 256, 2048, 4, 1024),
    size('TG-40', 320, 2560, 5, 1280),
    size('TG-48', 384, 3072, 6, 1536),
    size('TG-56', 448, 3584, 7, 1792),
    size('TG-64', 512, 4096, 8, 2048),
    size('TG-128', 1024, 8192, 16, 4096),
  ],
  regions: {
    aws: [
      'us-east-1',
      'us-east-2',
      'us-west-2',
      'eu-central-1',
      'eu-west-1',
      'eu-west-2',
      'sa-east-1',
      'ap-southeast-1',
      'ap-southeast-2',
      'ap-northeast-1',
    ],
    gcp: ['us-central1', 'europe-west1'],
    azure: ['eastus', 'westeurope'],
  },
  tg_versions: ['4.1.0', '4.1.2', '4.1.3', '4.2.0', '4.2.1'].map((name) => versionRecord(name)),
  addons: [
    {
      addons_id: 'e6203cf6-196b-4954-b15b-15e442c0c781',
      unique_name: 'graphstudio',
      title: 'GraphStudio',
      is_free: true,
      description: 'Visual schema design, data loading and query authoring.',
    },
    {
      addons_id: '2d31030d-9dfa-4144-bb5d-e9ee33dd10ff',
      unique_name: 'insights',
      title: 'Insights',
      is_free: true,
      description: 'No-code dashboards and graph exploration.',
    },
    {
      addons_id: '09d183ef-441a-497c-ba44-e5f5e316bfa8',
      unique_name: 'graphql',
      title: 'GraphQL',
      is_free: true,
      description: 'GraphQL endpoint generated from the graph schema.',
    },
    {
      addons_id: '286c80cd-f337-45dd-8f64-71173247f191',
      unique_name: 'copilot',
      title: 'CoPilot',
      is_free: false,
      description: 'Natural-language questions answered from the graph.',
    },
  ],
  tiers: {
    free: {
      max_size: 'TG-4',
      rw_workspaces: 1,
      ro_workspaces: 2,
      memory_gb: 768,
      manual_backups: 1,
      auto_backups: 0,
      byoc: false,
    },
    paid: {
      max_size: 'TG-16',
      rw_workspaces: 2,
      ro_workspaces: 3,
      memory_gb: 5120,
      manual_backups: 1,
      auto_backups: 3,
      byoc: false,
    },
    premium: {
      max_size: 'TG-32',
      rw_workspaces: 3,
      ro_workspaces: 5,
      memory_gb: 16384,
      manual_backups: 3,
      auto_backups: 7,
      byoc: false,
    },
    enterprise: {
      max_size: 'TG-64',
      rw_workspaces: 4,
      ro_workspaces: 7,
      memory_gb: 32768,
      manual_backups: 5,
      auto_backups: 7,
      byoc: true,
    },
  },
  // Enough for any real use, few enough that a list of them stays cheap to check (the gateway
  // reads a workgroup's whole allow list on each request).
  limits: {
    // Each workgroup's record (with its databases and workspaces) is in every GET /workgroups.
    workgroups_per_organisation: 100,
    // A database outlives its read-write workspace (read-only ones may still attach), so they
    // gather as workspaces come and go; each is in its workgroup's record.
    databases_per_workgroup: 50,
    // Registered cloud accounts: GET /cloud-providers lists them all with the public ones.
    cloud_providers_per_organisation: 20,
    allow_list_entries_per_workgroup: 200,
    configs_per_addon: 100,
    schedules_per_workspace: 50,
    api_keys_per_organisation: 500,
    db_users_per_workspace: 100,
    // Each webhook is a sender's worth of the deliverer's time for every event: few per organisation.
    webhooks_per_organisation: 20,
  },
  billing: defaultBilling,
};

/**
 * A version as the catalog holds it. A plain name (the config file's older form) is a stable
 * release anyone may create and upgrade to, without end of life; an object's omitted fields
 * take the same defaults. An end of life is kept as ISO time.
 */
export function versionRecord(input: TgVersionInput): TgVersion {
  const v = typeof input === 'string' ? { name: input } : input;
  let endOfLife: string | undefined;
  if (v.end_of_life !== undefined) {
    const at = Date.parse(v.end_of_life);
    if (Number.isNaN(at)) throw new Error(`tg_versions: ${v.name}'s end_of_life "${v.end_of_life}" is not a date`);
    endOfLife = new Date(at).toISOString();
  }
  return {
    name: v.name,
    channel: v.channel ?? 'stable',
    ...(endOfLife !== undefined ? { end_of_life: endOfLife } : {}),
    allow_create: v.allow_create ?? true,
    allow_upgrade: v.allow_upgrade ?? true,
    incompatible_upgrades_from: v.incompatible_upgrades_from ?? [],
    orgs: v.orgs ?? [],
  };
}

export function mergeCatalog(base: Catalog, override: ConfigFile | undefined): Catalog {
  const versions = override?.tg_versions?.map(versionRecord);
  if (versions) {
    const names = new Set(versions.map((v) => v.name));
    if (names.size !== versions.length) throw new Error('tg_versions: a version is listed twice');
  }
  return {
    ...base,
    ...(override ?? {}),
    tg_versions: versions ?? base.tg_versions,
    limits: { ...base.limits, ...(override?.limits ?? {}) },
  };
}

/** Namespace for the deterministic ids of public cloud providers, so every process agrees on them. */
const PUBLIC_PROVIDER_NAMESPACE = '9525f88f-6cb0-40b8-86ff-209c68a259ec';

export interface PublicProvider {
  id: string;
  shortId: string;
  name: string;
  platform: Platform;
  region: string;
}

export function publicProviders(catalog: Catalog): PublicProvider[] {
  return platforms.flatMap((platform) =>
    catalog.regions[platform].map((region) => {
      const id = uuidv5(`public/${platform}/${region}`, PUBLIC_PROVIDER_NAMESPACE);
      return { id, shortId: id.replace(/-/g, '').slice(0, 8), name: `${platform}-${region}`, platform, region };
    }),
  );
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The newest version of the catalog (the default of callers that have no organisation). */
export function newestVersion(catalog: Catalog): string {
  return catalog.tg_versions
    .map((v) => v.name)
    .sort(compareVersions)
    .at(-1)!;
}

export function findSize(catalog: Catalog, typeName: string) {
  return catalog.workspace_sizes.find((s) => s.typeName === typeName);
}

/**
 * The replication factor of a workspace of this size: 1, or with high availability 3 for the
 * sizes up to TG-8 and 2 from TG-16 (the managed service's FAQ). Those are the single-partition
 * sizes and the partitioned ones, which is how a catalog of other sizes is read too; a size the
 * catalog no longer has keeps the smaller factor.
 */
export function replicasOf(catalog: Catalog, typeName: string, ha: boolean): number {
  if (!ha) return 1;
  const size = findSize(catalog, typeName);
  return size !== undefined && size.partition <= 1 ? 3 : 2;
}

/** Why a workspace holding `graphBytes` cannot shrink to `typeName`, or undefined when it fits. */
export function topologyMisfit(catalog: Catalog, typeName: string, graphBytes: number): string | undefined {
  const target = findSize(catalog, typeName);
  if (!target || graphBytes <= target.max_topology_gb * 1024 ** 3) return undefined;
  return `the graph holds ${graphBytes} bytes, more than ${typeName} allows (${target.max_topology_gb} GB)`;
}

/** Sizes in catalog order up to and including the tier's max size. */
export function sizesAllowed(catalog: Catalog, maxSize: string) {
  const limit = catalog.workspace_sizes.findIndex((s) => s.typeName === maxSize);
  return limit < 0 ? [] : catalog.workspace_sizes.slice(0, limit + 1);
}

export const bytesFromGb = (gb: number) => gb * GiB;

/** The largest graph any size of the catalog holds, in bytes. */
export function largestTopologyBytes(catalog: Catalog): number {
  return Math.max(...catalog.workspace_sizes.map((s) => s.max_topology_gb)) * GiB;
}
