import { CloudProviderProvisionParams } from '../../domain/operation-params.js';
import { accountRunner } from './cloud-provider-kind.js';
import type { KindDeps } from './kind.js';

/** cloud_provider.provision: Pending → Provisioning → Active, with the infrastructure the driver reports. */
export const cloudProviderProvision = (deps: KindDeps) =>
  accountRunner(deps, {
    op: 'provision',
    params: CloudProviderProvisionParams,
    step: (spec, _params, ctx) => deps.drivers.account.provision(spec, ctx),
  });
