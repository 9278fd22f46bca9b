import { newId } from './ids.js';
import type { Executor } from '../store/store.js';
import { insertOperation, type Operation } from '../store/repositories/operations.js';
import * as providersRepo from '../store/repositories/cloud-providers.js';
import type { CloudProviderChanges, CloudProviderRow, NodeGroupConfig } from '../store/repositories/cloud-providers.js';

/** Provider operations run by the engine: create provisions, operation 21 upgrades. */
export type CloudProviderOperation = 'provision' | 'upgrade';

export const MAX_PROVIDER_ATTEMPTS = 3;

/** Parameters of a provider operation, stored with it. */
export interface CloudProviderOpParams {
  op: CloudProviderOperation;
  /** upgrade: the node groups after the upgrade (already merged and checked). */
  node_group_config?: NodeGroupConfig;
  /** upgrade: the log types to enable. */
  cluster_enabled_log_types?: string[];
  /** upgrade: the component versions to deploy. */
  components?: Array<{ name: string; version: string }>;
  [key: string]: unknown;
}

/** What provisioning a BYOC account produced. */
export interface ProvisionedInfrastructure {
  vpc_id: string;
  subnet_id: string[];
  security_group_id: string;
  cluster_id: string;
  availability_zones: string[];
  node_group_config: NodeGroupConfig;
  component_versions: Record<string, string>;
  endpoint_service_name?: string;
}

/** What the provisioner is asked when a registration is validated. */
export interface RoleCheck {
  platform: string;
  region: string;
  role_arn: string;
  role_external_id?: string | undefined;
  x_test_env?: string | undefined;
}

/** Answers whether the service can assume a customer's role (the driver, in practice). */
export interface RoleVerifier {
  canAssumeRole(check: RoleCheck): Promise<{ ok: true } | { ok: false; reason: string }>;
}

export const cloudProviderKind = (op: CloudProviderOperation) => `cloud_provider.${op}`;

/** Statuses in which the engine is working on the provider. */
export const transitionalProviderStatuses = ['Pending', 'Provisioning', 'Upgrading'] as const;

/** Enqueues a provider operation in the caller's transaction (the status write goes with it). */
export async function enqueueCloudProviderOperation(trx: Executor, provider: Pick<CloudProviderRow, 'id' | 'org_id'>, params: CloudProviderOpParams, now: number): Promise<string> {
  const id = newId();
  await insertOperation(trx, {
    id,
    org_id: provider.org_id!,
    resource_type: 'cloud_provider',
    resource_id: provider.id,
    kind: cloudProviderKind(params.op),
    params,
    max_attempts: MAX_PROVIDER_ATTEMPTS,
    run_at: now,
    created_at: now,
  });
  return id;
}

/** The first step of a provision moves the provider from Pending to Provisioning; later steps change nothing. */
export async function markProvisioning(db: Executor, provider: CloudProviderRow | undefined, now: number): Promise<void> {
  if (provider?.status === 'Pending') await updateLatest(db, provider, { status: 'Provisioning' }, now);
}

/** Applies a finished operation's effect to its provider (inside the completing transaction). */
export async function completeCloudProviderOperation(trx: Executor, op: Operation, now: number, infra: ProvisionedInfrastructure | undefined): Promise<void> {
  const provider = await providersRepo.findProviderById(trx, op.resource_id);
  if (!provider) return; // deleted meanwhile
  const params = op.params as CloudProviderOpParams;
  const changes: CloudProviderChanges = { status: 'Active', last_error: null };
  if (params.op === 'provision' && infra) {
    Object.assign(changes, infra, { vpc_owned_by_tg: true });
  }
  if (params.op === 'upgrade') {
    if (params.node_group_config) changes.node_group_config = params.node_group_config;
    if (params.cluster_enabled_log_types) changes.cluster_enabled_log_types = params.cluster_enabled_log_types;
    if (params.components?.length) {
      changes.component_versions = { ...(provider.component_versions ?? {}), ...Object.fromEntries(params.components.map((c) => [c.name, c.version])) };
    }
  }
  await updateLatest(trx, provider, changes, now);
}

/**
 * Applies engine-side changes even if an API request (a rename, say) bumped the version
 * since the row was read: the engine's outcome must not be lost to a concurrent edit.
 */
async function updateLatest(trx: Executor, provider: CloudProviderRow, changes: CloudProviderChanges, now: number): Promise<void> {
  let current: CloudProviderRow | undefined = provider;
  for (let i = 0; current && i < 5; i++) {
    if (await providersRepo.updateProvider(trx, current, changes, now)) return;
    current = await providersRepo.findProviderById(trx, provider.id);
  }
}

/** Marks the provider Failed with the driver's message. */
export async function failCloudProviderOperation(trx: Executor, op: Operation, message: string, now: number): Promise<void> {
  const provider = await providersRepo.findProviderById(trx, op.resource_id);
  if (!provider) return;
  await updateLatest(trx, provider, { status: 'Failed', last_error: message }, now);
}
