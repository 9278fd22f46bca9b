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
      { verb: 'list', op: 'listAllowedIps', aliases: ['ls'] },
      { verb: 'add', op: 'addAllowedIp', bodyArgs: ['cidr'] },
      { verb: 'update', op: 'updateAllowedIp', args: ['id'] },
      { verb: 'delete', op: 'deleteAllowedIp', args: ['id'], aliases: ['rm'] },
      { verb: 'enable', op: 'enableAllowList' },
      { verb: 'disable', op: 'disableAllowList' },
      { verb: 'current', op: 'checkCurrentIp' },
    ],
    view,
  );
}
