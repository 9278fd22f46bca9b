import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = {
  id: (e) => e.id,
  columns: [
    ['ENTRY_ID', (e) => e.id],
    ['CIDR', (e) => e.cidr],
    ['NOTE', (e) => e.note],
    ['EXPIRES_AT', (e) => e.expires_at],
  ],
};

export function allowListCommands(program: Command): void {
  apiGroup(
    program,
    'allow-list',
    'The addresses that may reach a workgroup on the data-plane gateway',
    [
      { verb: 'list', endpoint: 'listAllowedIps', aliases: ['ls'] },
      { verb: 'add', endpoint: 'addAllowedIp', bodyArgs: ['cidr'] },
      { verb: 'update', endpoint: 'updateAllowedIp', args: ['id'] },
      { verb: 'delete', endpoint: 'deleteAllowedIp', args: ['id'], aliases: ['rm'] },
      { verb: 'enable', endpoint: 'enableAllowList' },
      { verb: 'disable', endpoint: 'disableAllowList' },
      { verb: 'current', endpoint: 'checkCurrentIp' },
    ],
    view,
  );
}
