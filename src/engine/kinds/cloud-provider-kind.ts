import {
  cloudProviderKindName,
  completeCloudProviderOperation,
  failCloudProviderOperation,
  markProvisioning,
  type ProvisionedInfrastructure,
} from '../../domain/cloud-provider-operations.js';
import type { CloudProviderOpParams } from '../../domain/operation-params.js';
import { findProviderById, type NodeGroupConfig } from '../../store/repositories/cloud-providers.js';
import type { Operation } from '../../store/repositories/operations.js';
import { done, type AccountObserved, type AccountSpec, type StepContext, type StepOutcome } from '../drivers/driver.js';
import { accountSpec } from '../specs.js';
import type { TObject } from '@sinclair/typebox';
import { stepContext, type KindDeps, type OperationKind } from './kind.js';

/**
 * A cloud provider operation kind: the account driver works on the customer's account, the
 * domain records the outcome on the provider (Active, or Failed with last_error).
 */
export function accountRunner<S extends TObject>(
  { store }: KindDeps,
  def: {
    op: CloudProviderOpParams['op'];
    params: S;
    step(spec: AccountSpec, params: CloudProviderOpParams, ctx: StepContext): Promise<StepOutcome<AccountObserved>>;
  },
): OperationKind<S, AccountObserved> {
  return {
    kind: cloudProviderKindName(def.op),
    params: def.params,
    async run(op, ctx) {
      await markProvisioning(store, op.resource_id, ctx.now);
      const provider = await findProviderById(store.db, op.resource_id);
      if (!provider) return done({});
      return def.step(
        accountSpec(provider),
        op.params as CloudProviderOpParams,
        stepContext(op, ctx, provider.x_test_env),
      );
    },
    complete: (trx, op, observed, now) =>
      completeCloudProviderOperation(trx.db, op as Operation<CloudProviderOpParams>, now, infrastructureOf(observed)),
    fail: (trx, op, _params, message, now) => failCloudProviderOperation(trx.db, op, message, now),
  };
}

/**
 * A provisioned account's infrastructure as the provider record keeps it; undefined unless the
 * driver reported it whole.
 */
function infrastructureOf(o: AccountObserved): ProvisionedInfrastructure | undefined {
  if (!o.vpcId || !o.subnetIds || !o.securityGroupId || !o.clusterId || !o.availabilityZones) return undefined;
  return {
    vpc_id: o.vpcId,
    subnet_id: o.subnetIds,
    security_group_id: o.securityGroupId,
    cluster_id: o.clusterId,
    availability_zones: o.availabilityZones,
    node_group_config: (o.nodeGroups ?? {}) as NodeGroupConfig,
    component_versions: o.componentVersions ?? {},
    ...(o.endpointServiceName ? { endpoint_service_name: o.endpointServiceName } : {}),
  };
}
