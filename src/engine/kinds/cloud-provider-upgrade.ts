import { CloudProviderUpgradeParams } from '../../domain/operation-params.js';
import { accountRunner } from './cloud-provider-kind.js';
import type { KindDeps } from './kind.js';

/**
 * cloud_provider.upgrade (operation 21): Upgrading → Active with the node groups, log types and
 * components asked for.
 */
export const cloudProviderUpgrade = (deps: KindDeps) =>
  accountRunner(deps, {
    op: 'upgrade',
    params: CloudProviderUpgradeParams,
    step: (spec, params, ctx) => {
      if (params.op !== 'upgrade') throw new Error('not an upgrade');
      return deps.drivers.account.upgrade(
        {
          ...spec,
          upgrade: {
            ...(params.node_group_config ? { nodeGroups: params.node_group_config } : {}),
            ...(params.cluster_enabled_log_types ? { logTypes: params.cluster_enabled_log_types } : {}),
            ...(params.components
              ? { components: Object.fromEntries(params.components.map((c) => [c.name, c.version])) }
              : {}),
          },
        },
        ctx,
      );
    },
  });
