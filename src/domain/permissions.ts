import { forbidden } from './errors.js';
import type { Action } from '../schemas/api-key.js';
import type { Grant } from '../schemas/user.js';
import type { Principal } from './principal.js';
import {
  allows,
  billingGrantAllows,
  billingKeyAllows,
  grantAllows,
  keyAllows,
  type Target,
} from '../schemas/access.js';

export type { Target };

const describe: Record<Action, string> = {
  'org:admin': 'perform organisation administration',
  'workgroup:edit': 'edit this workgroup',
  'workspace:create': 'create workspaces or databases in this workgroup',
  'workspace:edit': 'edit this workspace',
  'workspace:delete': 'delete workspaces or databases in this workgroup',
};

/**
 * Whether the principal may perform the action (a change) on the target: its key's role and
 * its user's grants must both allow it, so a key never does more than its user may. Reads
 * are open to every key of the organisation; the organisation boundary itself is enforced
 * by scoping every lookup to principal.orgId.
 */
export function isAllowed(p: Principal, action: Action, target: Target = {}): boolean {
  return allows(p, p.grants, action, target);
}

/** Whether the principal's user holds one of the organisation roles (billing's, say). */
export function hasOrgRole(p: Principal, ...roles: Grant['role'][]): boolean {
  return p.grants.some((g) => roles.includes(g.role) && g.resource_id === null);
}

/** Throws Forbidden unless the principal may perform the action on the target. */
export function authorize(p: Principal, action: Action, target: Target = {}): void {
  if (!keyAllows(p, action, target)) throw forbidden('x-api-key', `a ${p.role} key may not ${describe[action]}`);
  if (!p.grants.some((g) => grantAllows(g, action, target)))
    throw forbidden('x-api-key', `the key's user has no role that may ${describe[action]}`);
}

/** Throws Forbidden unless the principal may read or manage the organisation's billing (src/schemas/access.ts). */
export function authorizeBilling(p: Principal, mode: 'read' | 'manage'): void {
  if (!billingKeyAllows(p.role, mode))
    throw forbidden('x-api-key', `a ${p.role} key may not ${mode} the organisation's billing`);
  if (!billingGrantAllows(p.grants, mode))
    throw forbidden('x-api-key', `the key's user has no role that may ${mode} the organisation's billing`);
}
