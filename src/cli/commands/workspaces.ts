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
      { verb: 'list', op: 'listWorkspaces', aliases: ['ls'] },
      { verb: 'get', op: 'getWorkspace', args: ['workspaceID'] },
      { verb: 'create', op: 'createWorkspace' },
      { verb: 'update', op: 'updateWorkspace', args: ['workspaceID'] },
      { verb: 'pause', op: 'pauseWorkspace', args: ['workspaceID'] },
      { verb: 'resume', op: 'resumeWorkspace', args: ['workspaceID'] },
      { verb: 'refresh', op: 'refreshWorkspace', args: ['workspaceID'] },
      { verb: 'delete', op: 'deleteWorkspace', args: ['workspaceID'], aliases: ['rm'] },
      { verb: 'meta', op: 'getWorkspaceMeta', description: 'Sizes, versions and regions the organisation may use' },
    ],
    workspaceView,
  ).alias('workspace');
}
