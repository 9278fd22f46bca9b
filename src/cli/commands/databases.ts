import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = {
  id: (d) => d.database_id,
  columns: [
    ['DATABASE_ID', (d) => d.database_id],
    ['NAME', (d) => d.name],
    ['VERSION', (d) => d.tg_version],
    ['WORKSPACES', (d) => (d.workspaces as unknown[]).length],
  ],
};

export function databaseCommands(program: Command): void {
  apiGroup(
    program,
    'databases',
    'Databases of a workgroup and the workspaces attached to them',
    [
      { verb: 'list', endpoint: 'listDatabases', aliases: ['ls'] },
      { verb: 'get', endpoint: 'getDatabase', args: ['databaseID'] },
      { verb: 'rename', endpoint: 'renameDatabase', args: ['databaseID'] },
      { verb: 'delete', endpoint: 'deleteDatabase', args: ['databaseID'], aliases: ['rm'] },
    ],
    view,
  ).alias('database');
}
