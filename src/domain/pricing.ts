import type { BillingCatalog, ResourcePricing } from '../schemas/pricing.js';
import type { Catalog, Platform } from '../schemas/catalog.js';
import { platforms } from '../schemas/catalog.js';

/** Money in the store and in sums: integer millionths of the currency unit. */
export const MICROS = 1_000_000;
export const HOUR_MS = 3_600_000;
/** A storage month: the 730 hours cloud price sheets use. */
export const MONTH_MS = 730 * HOUR_MS;
const GiB = 1024 ** 3;

export const toMicros = (units: number): number => Math.round(units * MICROS);
export const fromMicros = (micros: number): number => micros / MICROS;

/** One TigerGraph Credit (TCR) is $4.00; sizes cost a quarter of a TCR an hour per 2 vCPUs (docs/billing.md). */
const TCR = 4;
const tcrPerHour: Array<[string, number]> = [
  ['TG-00', 0.25],
  ['TG-0', 0.5],
  ['TG-1', 1],
  ['TG-2', 2],
  ['TG-4', 4],
  ['TG-6', 6],
  ['TG-8', 8],
  ['TG-16', 16],
  ['TG-24', 24],
  ['TG-32', 32],
  ['TG-40', 40],
  ['TG-48', 48],
  ['TG-56', 56],
  ['TG-64', 64],
  // Not on the public sheet: priced on the same line as the others, 1 TCR per 8 vCPUs.
  ['TG-128', 128],
];

/** The service's regional tiers: compute multiplier and storage price of each (docs/billing.md). */
const regionTiers = {
  1: { compute_factor: 1, storage_per_gb_month: 0.025 },
  2: { compute_factor: 1.125, storage_per_gb_month: 0.027 },
  3: { compute_factor: 1.25, storage_per_gb_month: 0.028 },
  4: { compute_factor: 1.375, storage_per_gb_month: 0.044 },
} as const;
const awsRegionTier: Record<string, keyof typeof regionTiers> = {
  'us-east-1': 1,
  'us-east-2': 1,
  'us-west-2': 1,
  'eu-west-1': 2,
  'eu-west-2': 2,
  'eu-central-1': 3,
  'ap-southeast-1': 3,
  'ap-southeast-2': 3,
  'ap-northeast-1': 3,
  'sa-east-1': 4,
};

export const defaultBilling: BillingCatalog = {
  currency: 'USD',
  compute_per_hour: Object.fromEntries(tcrPerHour.map(([size, tcr]) => [size, tcr * TCR])),
  default_region: regionTiers[1],
  regions: Object.entries(awsRegionTier).map(([region, tier]) => ({
    platform: 'aws' as const,
    region,
    ...regionTiers[tier],
  })),
  // Replication 3 (2.8x) up to TG-8, replication 2 (1.95x) above.
  ha: { small_up_to: 'TG-8', small_factor: 2.8, large_factor: 1.95 },
  addons: [
    { unique_name: 'insights', percent_of_compute: 10 },
    { unique_name: 'graphstudio', percent_of_compute: 0 },
    { unique_name: 'graphql', percent_of_compute: 0 },
  ],
  // The quota policy's suspend and terminate grace periods, in days there.
  grace: {
    free: { suspend_hours: 0, terminate_hours: 7 * 24 },
    paid: { suspend_hours: 24, terminate_hours: 7 * 24 },
    premium: { suspend_hours: 3 * 24, terminate_hours: 14 * 24 },
    enterprise: { suspend_hours: 7 * 24, terminate_hours: 28 * 24 },
  },
};

/** What a running workspace is priced by. */
export interface PricedShape {
  size: string;
  enableHa: boolean;
  platform: string;
  region: string;
}

function regionOf(billing: BillingCatalog, platform: string, region: string) {
  return billing.regions.find((r) => r.platform === platform && r.region === region) ?? billing.default_region;
}

function haFactor(catalog: Catalog, size: string): number {
  const { ha } = catalog.billing;
  const sizes = catalog.workspace_sizes.map((s) => s.typeName);
  const at = sizes.indexOf(size);
  const limit = sizes.indexOf(ha.small_up_to);
  return at >= 0 && limit >= 0 && at > limit ? ha.large_factor : ha.small_factor;
}

/** An hour of compute of the shape, in micros (0 for a size the sheet does not price). */
export function computeMicrosPerHour(catalog: Catalog, shape: PricedShape): number {
  const base = catalog.billing.compute_per_hour[shape.size] ?? 0;
  const factor = regionOf(catalog.billing, shape.platform, shape.region).compute_factor;
  return toMicros(base * factor * (shape.enableHa ? haFactor(catalog, shape.size) : 1));
}

/** A GiB-month of storage in the region, in micros. */
export function storageMicrosPerGbMonth(catalog: Catalog, platform: string, region: string): number {
  return toMicros(regionOf(catalog.billing, platform, region).storage_per_gb_month);
}

/** The add-on's share of compute, in percent (0 when free or unpriced). */
export function addonPercent(catalog: Catalog, uniqueName: string): number {
  return catalog.billing.addons.find((a) => a.unique_name === uniqueName)?.percent_of_compute ?? 0;
}

/** Storage of `bytes` for `ms`, in micros (not rounded: sums are rounded once). */
export function storageMicros(perGbMonth: number, bytes: number, ms: number): number {
  return ((bytes / GiB) * perGbMonth * ms) / MONTH_MS;
}

/** The platform a catalog region belongs to (regions are unique across platforms in the catalog). */
export function platformOfRegion(catalog: Catalog, region: string): Platform | undefined {
  return platforms.find((p) => catalog.regions[p].includes(region));
}

/** The whole price sheet, in the real service's ResourcePricing shape. */
export function resourcePricing(catalog: Catalog): ResourcePricing {
  const out: ResourcePricing = { workspace_pricing: [], data_storage_pricing: [], addon_pricing: [] };
  const priced = catalog.billing.addons.filter((a) => a.percent_of_compute > 0);
  for (const platform of platforms) {
    for (const region of catalog.regions[platform]) {
      out.data_storage_pricing.push({
        platform,
        region,
        price_per_month: fromMicros(storageMicrosPerGbMonth(catalog, platform, region)),
      });
      for (const { typeName } of catalog.workspace_sizes) {
        for (const enableHa of [false, true]) {
          const micros = computeMicrosPerHour(catalog, { size: typeName, enableHa, platform, region });
          out.workspace_pricing.push({
            cloud_provider: 'public',
            platform,
            region,
            workspace_type: typeName,
            ha: String(enableHa),
            price_per_hour: fromMicros(micros),
          });
          if (enableHa) continue;
          for (const addon of priced)
            out.addon_pricing.push({
              type: addon.unique_name,
              platform,
              region,
              workspace_type: typeName,
              price_per_hour: fromMicros(Math.round((micros * addon.percent_of_compute) / 100)),
            });
        }
      }
    }
  }
  return out;
}
