import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { WorkspaceParams, WorkspaceRecord } from '../workspace.js';
import { ScheduledUpgradeRecord, UpgradeWorkspaceBody } from '../upgrade.js';
import { endpoint } from './spec.js';

const tags = ['Workspaces'] as const;

export const upgradeEndpoints = {
  upgradeWorkspace: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/workgroups/{workgroupID}/workspaces/{workspaceID}/upgrade`,
    summary: 'Upgrade a workspace',
    description:
      'Moves the workspace to `desired_version` (default: the newest it may upgrade to outside the preview ' +
      'channel). Now: an Active workspace goes Updating (condition Upgrade), then Active at the new version, ' +
      'or back at its old one with `err_message` when the upgrade fails. `scheduled: true`: the upgrade waits ' +
      "for the workspace's next maintenance window (`upgrade_window_start`); a new request replaces a waiting " +
      'one, and PUT with `desired_tg_version` set to the running version cancels it. 400 names ' +
      '`desired_version` for an unknown, older, end-of-life or incompatible version, or one not offered as an ' +
      'upgrade.',
    tags,
    params: WorkspaceParams,
    body: Ref(UpgradeWorkspaceBody),
    result: Ref(WorkspaceRecord),
    errors: [403, 404, 409],
    follow: 'workspace',
    message: 'Workspace upgrade accepted.',
    client: 'workspaces.upgrade',
  }),
  listScheduledUpgrades: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/workspaces/upgrade-next-window`,
    summary: 'Upgrades waiting for a maintenance window',
    description:
      "The organisation's workspaces that will upgrade in their next maintenance window, soonest first, each " +
      'with the version it runs, the one it will run and the window (one hour from `window_start`). At most ' +
      '500; a workspace upgrades only if it is Active when its window opens, else at the next window.',
    tags,
    result: Type.Array(Ref(ScheduledUpgradeRecord)),
    errors: [],
    client: 'workspaces.upgradeNextWindow',
  }),
} as const;
