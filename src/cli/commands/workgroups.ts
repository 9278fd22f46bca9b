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
    ['EXPIRES_AT', (w) => (w.expires_at as string | undefined) ?? 'never'],
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
      { verb: 'create', endpoint: 'createWorkgroup', durations: { expires_in_seconds: 'expires-in' } },
      {
        verb: 'update',
        endpoint: 'updateWorkgroup',
        args: ['workgroupID'],
        durations: { expires_in_seconds: 'expires-in' },
      },
      { verb: 'delete', endpoint: 'deleteWorkgroup', args: ['workgroupID'], aliases: ['rm'] },
      { verb: 'metrics', endpoint: 'workgroupMetrics', args: ['workgroupID'] },
      {
        verb: 'acquire',
        endpoint: 'acquirePooledWorkgroup',
        description: 'Take one of the workgroups the server keeps warm, its workspace already Active',
      },
    ],
    view,
  ).alias('workgroup');
}
