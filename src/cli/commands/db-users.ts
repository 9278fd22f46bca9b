import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = {
  id: (u) => u.username,
  columns: [
    ['USERNAME', (u) => u.username],
    ['WORKSPACE_ID', (u) => u.workspace_id],
    ['CREATED_AT', (u) => u.created_at],
  ],
};

export function dbUserCommands(program: Command): void {
  apiGroup(
    program,
    'db-users',
    'The database users the gateway admits to a workspace',
    [
      { verb: 'list', endpoint: 'listDbUsers', aliases: ['ls'] },
      { verb: 'create', endpoint: 'createDbUser' },
      { verb: 'update', endpoint: 'updateDbUser', description: "Change a database user's password" },
      { verb: 'delete', endpoint: 'deleteDbUser', bodyArgs: ['username'], aliases: ['rm'] },
    ],
    view,
  ).alias('db-user');
}
