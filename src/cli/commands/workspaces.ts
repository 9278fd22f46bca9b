import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

export const workspaceView: View = {
  id: (w) => w.workspace_id,
  columns: [
    ['WORKSPACE_ID', (w) => w.workspace_id],
    ['NAME', (w) => w.name],
    ['WORKGROUP', (w) => w.workgroup_name],
    ['STATUS', (w) => w.status],
    ['SIZE', (w) => (w.workspace_type as { typeName?: string } | undefined)?.typeName],
    ['RW', (w) => (w.is_rw ? 'rw' : 'ro')],
    ['VERSION', (w) => w.tg_version],
  ],
};

export function workspaceCommands(program: Command): void {
  apiGroup(
    program,
    'workspaces',
    'Workspaces: compute attached to a database (create, resize, pause, resume, delete)',
    [
      { verb: 'list', endpoint: 'listWorkspaces', aliases: ['ls'] },
      { verb: 'get', endpoint: 'getWorkspace', args: ['workspaceID'] },
      { verb: 'create', endpoint: 'createWorkspace' },
      { verb: 'update', endpoint: 'updateWorkspace', args: ['workspaceID'] },
      { verb: 'pause', endpoint: 'pauseWorkspace', args: ['workspaceID'] },
      { verb: 'resume', endpoint: 'resumeWorkspace', args: ['workspaceID'] },
      { verb: 'refresh', endpoint: 'refreshWorkspace', args: ['workspaceID'] },
      { verb: 'delete', endpoint: 'deleteWorkspace', args: ['workspaceID'], aliases: ['rm'] },
      {
        verb: 'meta',
        endpoint: 'getWorkspaceMeta',
        description: 'Sizes, versions and regions the organisation may use',
      },
    ],
    workspaceView,
  ).alias('workspace');
}
