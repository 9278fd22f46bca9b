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
      { verb: 'list', endpoint: 'listCloudProviders', aliases: ['ls'] },
      { verb: 'public', endpoint: 'listPublicCloudProviders' },
      { verb: 'get', endpoint: 'getCloudProvider', args: ['cloudProviderID'] },
      { verb: 'validate', endpoint: 'validateCloudProvider' },
      { verb: 'create', endpoint: 'createCloudProvider' },
      { verb: 'update', endpoint: 'updateCloudProvider', args: ['cloudProviderID'] },
      { verb: 'upgrade', endpoint: 'upgradeCloudProvider', args: ['cloudProviderID'] },
      { verb: 'delete', endpoint: 'deleteCloudProvider', args: ['cloudProviderID'], aliases: ['rm'] },
      {
        verb: 'list-all',
        endpoint: 'listEveryCloudProvider',
        description: "Every organisation's providers (platform administrators)",
      },
    ],
    view,
  ).alias('provider');
}
