import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = {
  id: (p) => p.id,
  columns: [
    ['PROVIDER_ID', (p) => p.id],
    ['SHORT_ID', (p) => p.short_id],
    ['NAME', (p) => p.name],
    ['TYPE', (p) => p.type],
    ['PLATFORM/REGION', (p) => `${p.platform as string}/${p.region as string}`],
    ['STATUS', (p) => p.status],
  ],
};

export function providerCommands(program: Command): void {
  apiGroup(
    program,
    'providers',
    'Cloud providers: public ones (one per platform and region) and bring-your-own-cloud accounts',
    [
      { verb: 'list', op: 'listCloudProviders', aliases: ['ls'] },
      { verb: 'get', op: 'getCloudProvider', args: ['cloudProviderID'] },
      { verb: 'validate', op: 'validateCloudProvider' },
      { verb: 'create', op: 'createCloudProvider' },
      { verb: 'update', op: 'updateCloudProvider', args: ['cloudProviderID'] },
      { verb: 'upgrade', op: 'upgradeCloudProvider', args: ['cloudProviderID'] },
      { verb: 'delete', op: 'deleteCloudProvider', args: ['cloudProviderID'], aliases: ['rm'] },
    ],
    view,
  ).alias('provider');
}
