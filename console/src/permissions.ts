import type { Action, ApiKeyRecord } from './api/types.js';

export interface Target {
  workgroupId?: string | undefined;
  workspaceId?: string | undefined;
}

/**
 * Whether the key may do this, by the rule the server enforces (isAllowed in
 * src/domain/permissions.ts; test/console-permissions.test.ts holds the two together). The
 * console only hides what would be refused; the server still decides.
 */
export function can(
  key: Pick<ApiKeyRecord, 'role' | 'workgroup_ids' | 'workspace_ids' | 'user_grants'>,
  action: Action,
  target: Target = {},
): boolean {
  // The key acts for its user: one of the user's grants must allow it too.
  return keyCan(key, action, target) && (key.user_grants ?? []).some((g) => grantCan(g, action, target));
}

function grantCan(grant: { role: string; resource_id: string | null }, action: Action, target: Target): boolean {
  switch (grant.role) {
    case 'org-admin':
      return true;
    case 'workgroup-admin':
      return action !== 'org:admin' && target.workgroupId !== undefined && grant.resource_id === target.workgroupId;
    case 'workspace-admin':
      return (
        action === 'workspace:edit' && target.workspaceId !== undefined && grant.resource_id === target.workspaceId
      );
    default:
      return false;
  }
}

function keyCan(
  key: Pick<ApiKeyRecord, 'role' | 'workgroup_ids' | 'workspace_ids'>,
  action: Action,
  target: Target,
): boolean {
  switch (key.role) {
    case 'org-admin':
      return true;
    case 'viewer':
      return false;
    case 'workgroup-admin':
      return (
        action !== 'org:admin' && target.workgroupId !== undefined && key.workgroup_ids.includes(target.workgroupId)
      );
    case 'workspace-admin':
      return (
        action === 'workspace:edit' &&
        target.workspaceId !== undefined &&
        key.workspace_ids.includes(target.workspaceId)
      );
  }
}
