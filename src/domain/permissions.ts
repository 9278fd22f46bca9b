import { forbidden } from './errors.js';
import type { Action } from '../schemas/api-key.js';
import type { Principal } from './principal.js';

export interface Target {
  workgroupId?: string;
  workspaceId?: string;
}

const describe: Record<Action, string> = {
  'org:admin': 'perform organisation administration',
  'workgroup:edit': 'edit this workgroup',
  'workspace:create': 'create workspaces or databases in this workgroup',
  'workspace:edit': 'edit this workspace',
  'workspace:delete': 'delete workspaces or databases in this workgroup',
};

/**
 * Whether the principal's role allows the action (a change) on the target. Reads are open to
 * every role of the organisation; the organisation boundary itself is enforced by scoping
 * every lookup to principal.orgId.
 */
export function isAllowed(p: Principal, action: Action, target: Target = {}): boolean {
  switch (p.role) {
    case 'org-admin':
      return true;
    case 'viewer':
      return false;
    case 'workgroup-admin':
      return action !== 'org:admin' && target.workgroupId !== undefined && p.workgroupIds.includes(target.workgroupId);
    case 'workspace-admin':
      return (
        action === 'workspace:edit' && target.workspaceId !== undefined && p.workspaceIds.includes(target.workspaceId)
      );
  }
}

/** Throws Forbidden unless the principal may perform the action on the target. */
export function authorize(p: Principal, action: Action, target: Target = {}): void {
  if (!isAllowed(p, action, target)) {
    throw forbidden('x-api-key', `a ${p.role} key may not ${describe[action]}`);
  }
}
