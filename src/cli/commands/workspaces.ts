import type { Command } from 'commander';
import { resultOf, type WorkspaceRecord } from '../../client/index.js';
import { apiCommand, apiGroup } from '../api-command.js';
import { contextOf } from '../context.js';
import { render, type View } from '../output.js';
import { allWorkgroups, findWorkgroup } from '../resolve.js';

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

const scheduledUpgradeView: View = {
  id: (u) => u.workspace_id,
  columns: [
    ['WORKSPACE_ID', (u) => u.workspace_id],
    ['NAME', (u) => u.workspace_name],
    ['STATUS', (u) => u.status],
    ['VERSION', (u) => u.tg_version],
    ['UPGRADE_TO', (u) => u.desired_version],
    ['WINDOW_START', (u) => u.window_start],
  ],
};

export function workspaceCommands(program: Command): void {
  const group = apiGroup(
    program,
    'workspaces',
    'Workspaces: compute attached to a database (create, resize, pause, resume, delete)',
    [
      { verb: 'get', endpoint: 'getWorkspace', args: ['workspaceID'] },
      { verb: 'create', endpoint: 'createWorkspace' },
      { verb: 'update', endpoint: 'updateWorkspace', args: ['workspaceID'] },
      { verb: 'pause', endpoint: 'pauseWorkspace', args: ['workspaceID'] },
      { verb: 'resume', endpoint: 'resumeWorkspace', args: ['workspaceID'] },
      { verb: 'refresh', endpoint: 'refreshWorkspace', args: ['workspaceID'] },
      { verb: 'delete', endpoint: 'deleteWorkspace', args: ['workspaceID'], aliases: ['rm'] },
      {
        verb: 'upgrade',
        endpoint: 'upgradeWorkspace',
        args: ['workspaceID'],
        description: 'Upgrade a workspace now, or with --scheduled in its next maintenance window',
      },
      {
        verb: 'upgrades',
        endpoint: 'listScheduledUpgrades',
        description: 'Workspaces that will upgrade in their next maintenance window',
        view: scheduledUpgradeView,
      },
      {
        verb: 'meta',
        endpoint: 'getWorkspaceMeta',
        description: 'Sizes, versions and regions the organisation may use',
      },
    ],
    workspaceView,
  ).alias('workspace');
  listCommand(group);
}

/**
 * `workspaces list`: the workgroup's with -g, else every workspace of the organisation, as
 * `get` looks for a name everywhere (the workgroups read a page at a time).
 */
function listCommand(group: Command): void {
  apiCommand(group, { verb: 'list', endpoint: 'listWorkspaces', aliases: ['ls'], view: workspaceView })
    .description('List the workspaces of a workgroup (-g), or of every workgroup')
    .action(async (opts: { workgroup?: string }, command: Command) => {
      const ctx = contextOf(command);
      const all: WorkspaceRecord[] = [];
      if (opts.workgroup) {
        const wg = await findWorkgroup(ctx.client, opts.workgroup);
        all.push(...resultOf(await ctx.client.workspaces.list(wg.workgroup_id)));
      } else for await (const g of allWorkgroups(ctx.client)) all.push(...g.workspaces);
      render(ctx, all, workspaceView);
    });
  // Shown first in the help, as the other groups show theirs.
  const commands = group.commands as Command[];
  commands.unshift(commands.pop()!);
}
