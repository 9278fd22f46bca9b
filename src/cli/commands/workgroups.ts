import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = {
  id: (w) => w.workgroup_id,
  columns: [
    ['WORKGROUP_ID', (w) => w.workgroup_id],
    ['NAME', (w) => w.name],
    ['PROVIDER', (w) => `${w.platform as string}/${w.region as string}`],
    ['WORKSPACES', (w) => (w.workspaces as unknown[]).length],
    ['ALLOW_LIST', (w) => (w.enable_allow_list ? 'enforced' : 'off')],
  ],
};

export function workgroupCommands(program: Command): void {
  apiGroup(
    program,
    'workgroups',
    'Workgroups: a cloud provider and region holding databases, workspaces and an allow list',
    [
      { verb: 'list', endpoint: 'listWorkgroups', aliases: ['ls'] },
      { verb: 'get', endpoint: 'getWorkgroup', args: ['workgroupID'] },
      { verb: 'create', endpoint: 'createWorkgroup' },
      { verb: 'update', endpoint: 'updateWorkgroup', args: ['workgroupID'] },
      { verb: 'delete', endpoint: 'deleteWorkgroup', args: ['workgroupID'], aliases: ['rm'] },
    ],
    view,
  ).alias('workgroup');
}
