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
  key: Pick<ApiKeyRecord, 'role' | 'workgroup_ids' | 'workspace_ids'>,
  action: Action,
  target: Target = {},
) {
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
