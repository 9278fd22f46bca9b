import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './helpers.js';
import { Component } from './component.js';

const Strict = { additionalProperties: false } as const;
const Price = (description: string) => Type.Number({ minimum: 0, maximum: 1_000_000, description });

/** Compute factor and storage price of one region; regions not listed price at `default_region`. */
export const RegionPricing = Type.Object(
  {
    platform: StringEnum(['aws', 'azure', 'gcp'] as const),
    region: Type.String({ minLength: 1, maxLength: 64 }),
    compute_factor: Type.Number({ minimum: 0, maximum: 100, description: 'multiplies every size price' }),
    storage_per_gb_month: Price('currency units per GiB stored for a month (730 hours)'),
  },
  Strict,
);

/** How long an organisation out of credit keeps its workspaces, per tier (hours). */
export const GracePeriods = Type.Object(
  {
    suspend_hours: Type.Integer({ minimum: 0, maximum: 100_000, description: 'from delinquency to the pause' }),
    terminate_hours: Type.Integer({ minimum: 0, maximum: 100_000, description: 'from the pause to the deletion' }),
  },
  Strict,
);
export type GracePeriods = Static<typeof GracePeriods>;

/**
 * The price catalog (the Catalog's `billing`, replaced whole by ACACIA_CONFIG). Prices are in
 * currency units as configured; the store keeps money in integer millionths of a unit.
 */
export const BillingCatalog = Type.Object(
  {
    currency: Type.String({ minLength: 3, maxLength: 3 }),
    compute_per_hour: Type.Record(Type.String({ minLength: 1, maxLength: 32 }), Price('per hour at factor 1'), {
      description: 'price of an hour of each workspace size',
    }),
    default_region: Type.Object(
      { compute_factor: RegionPricing.properties.compute_factor, storage_per_gb_month: Price('per GiB-month') },
      Strict,
    ),
    regions: Type.Array(RegionPricing, { maxItems: 256 }),
    ha: Type.Object(
      {
        small_up_to: Type.String({ minLength: 1, description: 'the largest size priced with small_factor' }),
        small_factor: Type.Number({ minimum: 1, maximum: 10 }),
        large_factor: Type.Number({ minimum: 1, maximum: 10 }),
      },
      Strict,
    ),
    addons: Type.Array(
      Type.Object(
        {
          unique_name: Type.String({ minLength: 1, maxLength: 64 }),
          percent_of_compute: Type.Number({ minimum: 0, maximum: 1000 }),
        },
        Strict,
      ),
      { maxItems: 64 },
    ),
    grace: Type.Object(
      { free: GracePeriods, paid: GracePeriods, premium: GracePeriods, enterprise: GracePeriods },
      Strict,
    ),
  },
  Strict,
);
export type BillingCatalog = Static<typeof BillingCatalog>;

/** GET billing/resource-pricing, in the real service's shape (ResourcePricing). */
export const ResourcePricing = Component(
  'ResourcePricing',
  Type.Object({
    workspace_pricing: Type.Array(
      Type.Object({
        cloud_provider: Type.String({ description: 'public: the service runs it' }),
        platform: Type.String(),
        region: Type.String(),
        workspace_type: Type.String(),
        ha: Type.String({ description: '"true" or "false"' }),
        price_per_hour: Type.Number(),
      }),
    ),
    data_storage_pricing: Type.Array(
      Type.Object({ platform: Type.String(), region: Type.String(), price_per_month: Type.Number() }),
    ),
    addon_pricing: Type.Array(
      Type.Object({
        type: Type.String({ description: 'the add-on unique_name' }),
        platform: Type.String(),
        region: Type.String(),
        workspace_type: Type.String(),
        price_per_hour: Type.Number(),
      }),
    ),
  }),
);
export type ResourcePricing = Static<typeof ResourcePricing>;
