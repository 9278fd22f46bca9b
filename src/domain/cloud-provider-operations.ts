import { newId } from './ids.js';
import type { Executor, Store, Tx } from '../store/store.js';
import { insertOperation, type Operation } from '../store/repositories/operations.js';
import * as providersRepo from '../store/repositories/cloud-providers.js';
import type { CloudProviderChanges, CloudProviderRow, NodeGroupConfig } from '../store/repositories/cloud-providers.js';
import type { CloudProviderOperation, CloudProviderOpParams } from './operation-params.js';

export type { CloudProviderOperation, CloudProviderOpParams };

export const MAX_PROVIDER_ATTEMPTS = 3;

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

/** The operation's stored kind: `cloud_provider.<op>`. */
export const cloudProviderKindName = (op: CloudProviderOperation) => `cloud_provider.${op}`;

/** Statuses in which the engine is working on the provider. */
export const transitionalProviderStatuses = ['Pending', 'Provisioning', 'Upgrading'] as const;

/** Enqueues a provider operation in the caller's transaction (the status write goes with it). */
export async function enqueueCloudProviderOperation(
  trx: Tx,
  provider: Pick<CloudProviderRow, 'id' | 'org_id'>,
  params: CloudProviderOpParams,
  now: number,
): Promise<string> {
  const id = newId();
  await insertOperation(trx, {
    id,
    org_id: provider.org_id!,
    resource_type: 'cloud_provider',
    resource_id: provider.id,
    kind: cloudProviderKindName(params.op),
    params,
    max_attempts: MAX_PROVIDER_ATTEMPTS,
    run_at: now,
    created_at: now,
  });
  return id;
}

/** The first step of a provision moves the provider from Pending to Provisioning; later steps change nothing. */
export async function markProvisioning(store: Store, id: string, now: number): Promise<void> {
  await store.transaction((trx) =>
    applyOutcome(trx.db, id, now, (provider) =>
      provider.status === 'Pending' ? { status: 'Provisioning' } : undefined,
    ),
  );
}

/** Applies a finished operation's effect to its provider (inside the completing transaction). */
export async function completeCloudProviderOperation(
  trx: Executor,
  op: Operation<CloudProviderOpParams>,
  now: number,
  infra: ProvisionedInfrastructure | undefined,
): Promise<void> {
  await applyOutcome(trx, op.resource_id, now, (provider) => outcomeChanges(provider, op.params, infra));
}

function outcomeChanges(
  provider: CloudProviderRow,
  params: CloudProviderOpParams,
  infra: ProvisionedInfrastructure | undefined,
): CloudProviderChanges {
  const changes: CloudProviderChanges = { status: 'Active', last_error: null };
  if (params.op === 'provision' && infra) {
    Object.assign(changes, infra, { vpc_owned_by_tg: true });
  }
  if (params.op === 'upgrade') {
    if (params.node_group_config) changes.node_group_config = params.node_group_config as NodeGroupConfig;
    if (params.cluster_enabled_log_types) changes.cluster_enabled_log_types = params.cluster_enabled_log_types;
    if (params.components?.length) {
      changes.component_versions = {
        ...(provider.component_versions ?? {}),
        ...Object.fromEntries(params.components.map((c) => [c.name, c.version])),
      };
    }
  }
  return changes;
}

/** Marks the provider Failed with the driver's message. */
export async function failCloudProviderOperation(
  trx: Executor,
  op: Operation,
  message: string,
  now: number,
): Promise<void> {
  await applyOutcome(trx, op.resource_id, now, () => ({ status: 'Failed', last_error: message }));
}

/**
 * Writes engine-side changes on the provider as it is now, the row locked in between, so an
 * API request (a rename, say) can neither be overwritten nor make the outcome be lost.
 * Nothing to do once the provider is gone, or when there is no change.
 */
async function applyOutcome(
  trx: Executor,
  id: string,
  now: number,
  changesFor: (provider: CloudProviderRow) => CloudProviderChanges | undefined,
): Promise<void> {
  const provider = await providersRepo.lockProviderById(trx, id);
  const changes = provider && changesFor(provider);
  if (!provider || !changes) return;
  if (!(await providersRepo.updateProvider(trx, provider, changes, now)))
    throw new Error(`cloud provider ${id} changed under its lock`);
}
