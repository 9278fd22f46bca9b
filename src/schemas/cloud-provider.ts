import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, Name, StringEnum, Timestamp } from './helpers.js';
import { Platform } from './catalog.js';
import { Component, Ref } from './component.js';

const Opt = Type.Optional;

export const clusterLogTypes = ['api', 'audit', 'authenticator', 'controllerManager', 'scheduler'] as const;
export const nodeGroupKeys = ['ng_16', 'ng_32', 'ng_48', 'ng_64', 'ng_system'] as const;
export const providerTypes = ['private', 'public'] as const;

export const providerStatuses = ['Pending', 'Provisioning', 'Active', 'Upgrading', 'Failed', 'Inactive'] as const;

export const NodeGroup = Component(
  'NodeGroup',
  Type.Object({
    max_size: Type.Integer(),
    min_size: Type.Integer(),
    overprovisioning_factor: Type.Integer(),
  }),
);

export const NodeGroupConfig = Component(
  'NodeGroupConfig',
  Type.Object({
    ng_16: Opt(Ref(NodeGroup)),
    ng_32: Opt(Ref(NodeGroup)),
    ng_48: Opt(Ref(NodeGroup)),
    ng_64: Opt(Ref(NodeGroup)),
    ng_system: Opt(Ref(NodeGroup)),
    prefetch_image_list: Opt(Type.Array(Type.String())),
  }),
);

export const ProviderOptions = Type.Object({
  account_id: Opt(Type.String()),
  secure_connection: Opt(Type.Boolean()),
});

const providerStatusText =
  'Pending → Provisioning → Active, or Failed with last_error; an upgrade runs Upgrading → Active; ' +
  'Inactive: a public provider whose region left the catalog.';

/** The Cloud provider record of the contract; fields the service has not filled are absent. */
export const CloudProviderRecord = Component(
  'CloudProviderRecord',
  Type.Object(
    {
      id: Type.String(),
      short_id: Type.String({ description: '8 characters' }),
      name: Type.String(),
      type: StringEnum(providerTypes, { description: 'public: service-owned; private: bring-your-own-cloud' }),
      platform: Platform,
      region: Type.String(),
      status: StringEnum(providerStatuses, { description: providerStatusText }),
      org_id: Opt(Type.String({ description: 'absent on public providers' })),
      created_by: Opt(Type.String()),
      version: Opt(Type.String()),
      api_tokens: Opt(Type.Array(Type.String())),
      availability_zones: Opt(Type.Array(Type.String())),
      cluster_enabled_log_types: Opt(Type.Array(StringEnum(clusterLogTypes))),
      component_versions: Opt(Type.String({ description: 'name=version pairs, comma-separated, sorted by name' })),
      cluster_id: Opt(Type.String()),
      endpoint_service_name: Opt(Type.String()),
      last_error: Opt(Type.String()),
      node_group_config: Opt(Ref(NodeGroupConfig)),
      options: Opt(ProviderOptions),
      role_arn: Opt(Type.String()),
      role_external_id: Opt(Type.String()),
      security_group_id: Opt(Type.String()),
      vpc_id: Opt(Type.String()),
      subnet_id: Opt(Type.Array(Type.String())),
      vpc_owned_by_tg: Opt(Type.Boolean()),
      work_dir: Opt(Type.String()),
      created_at: Timestamp,
      updated_at: Timestamp,
      version_number: Type.Integer(),
    },
    { description: 'A cloud account workgroups deploy into: public (service-owned) or private (BYOC).' },
  ),
);
export type CloudProviderRecord = Static<typeof CloudProviderRecord>;

const Arn = Type.String({ minLength: 1, maxLength: 256 });
const ExternalId = Type.String({ minLength: 1, maxLength: 256 });
/** Fault injection for the simulated provisioner (see src/domain/test-env.ts). */
const TestEnv = Type.String({
  maxLength: 256,
  description: 'extension: fault injection, e.g. fail:provision, fail:upgrade, fail:validate',
});

/** Operation 18. The contract marks nothing required; the service needs platform, region and role_arn. */
export const CreateCloudProviderBody = Component(
  'CreateCloudProviderBody',
  Body({
    created_by: Opt(Name),
    name: Opt(Name),
    options: Opt(
      Type.Object(
        { account_id: Opt(Type.String({ minLength: 1, maxLength: 64 })), secure_connection: Opt(Type.Boolean()) },
        { additionalProperties: false },
      ),
    ),
    platform: Platform,
    region: Type.String({ minLength: 1, maxLength: 64 }),
    role_arn: Arn,
    role_external_id: Opt(ExternalId),
    type: Opt(StringEnum(providerTypes)),
    x_test_env: Opt(TestEnv),
  }),
);
export type CreateCloudProviderBody = Static<typeof CreateCloudProviderBody>;

/** Operation 19. */
export const ValidateCloudProviderBody = Component(
  'ValidateCloudProviderBody',
  Body({
    account_id: Opt(Type.String({ minLength: 1, maxLength: 64 })),
    platform: Platform,
    region: Type.String({ minLength: 1, maxLength: 64 }),
    role_arn: Arn,
    role_external_id: Opt(ExternalId),
    secure_connection: Opt(Type.Boolean()),
    x_test_env: Opt(TestEnv),
  }),
);
export type ValidateCloudProviderBody = Static<typeof ValidateCloudProviderBody>;

/** Operation 20. */
export const UpdateCloudProviderBody = Component(
  'UpdateCloudProviderBody',
  Body({
    name: Opt(Name),
    version: Opt(Type.String({ minLength: 1, maxLength: 32, description: 'major.minor.patch' })),
  }),
);
export type UpdateCloudProviderBody = Static<typeof UpdateCloudProviderBody>;

/** Far above any real node group (EKS allows 450 nodes per group), so only nonsense is refused. */
const NodeCount = Type.Integer({ minimum: 0, maximum: 1000 });
const NodeGroupInput = Type.Object(
  { max_size: Opt(NodeCount), min_size: Opt(NodeCount), overprovisioning_factor: Opt(NodeCount) },
  { additionalProperties: false },
);

/** Operation 21. Node group fields merge into the current configuration. */
export const UpgradeCloudProviderBody = Component(
  'UpgradeCloudProviderBody',
  Body({
    cluster_enabled_log_types: Opt(Type.Array(StringEnum(clusterLogTypes), { maxItems: clusterLogTypes.length })),
    components: Opt(
      Type.Array(
        Body({
          name: Type.String({ minLength: 1, maxLength: 64 }),
          version: Type.String({ minLength: 1, maxLength: 64 }),
        }),
        { maxItems: 32 },
      ),
    ),
    node_group_config: Opt(
      Body({
        ng_16: Opt(NodeGroupInput),
        ng_32: Opt(NodeGroupInput),
        ng_48: Opt(NodeGroupInput),
        ng_64: Opt(NodeGroupInput),
        ng_system: Opt(NodeGroupInput),
        prefetch_image_list: Opt(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 64 })),
      }),
    ),
  }),
);
export type UpgradeCloudProviderBody = Static<typeof UpgradeCloudProviderBody>;

export const CloudProviderParams = Type.Object({ cloudProviderID: Id });
