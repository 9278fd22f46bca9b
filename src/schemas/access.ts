import type { Action, Role } from './api-key.js';

// Who may change what: the server enforces it (src/domain/permissions.ts) and the console asks
// it to hide what would be refused (console/src/permissions.ts), so it lives once, here.

/** What a change is aimed at. */
export interface Target {
  workgroupId?: string | undefined;
  workspaceId?: string | undefined;
}

/** A grant as a record carries it: a role name, and the workgroup or workspace it is on. */
export interface GrantLike {
  role: string;
  resource_id: string | null;
}

/** An API key's role and scope. */
export interface KeyScope {
  role: Role;
  workgroupIds: readonly string[];
  workspaceIds: readonly string[];
}

/** Whether the key's role and scope allow the action on the target. */
export function keyAllows(key: KeyScope, action: Action, target: Target): boolean {
  switch (key.role) {
    case 'org-admin':
      return true;
    case 'viewer':
      return false;
    case 'workgroup-admin':
      return (
        action !== 'org:admin' && target.workgroupId !== undefined && key.workgroupIds.includes(target.workgroupId)
      );
    case 'workspace-admin':
      return (
        action === 'workspace:edit' && target.workspaceId !== undefined && key.workspaceIds.includes(target.workspaceId)
      );
  }
}

/**
 * Whether one of the user's grants allows the action on the target, as the real service's
 * access-management tables have it: a workgroup admin edits its workgroup and creates, edits
 * and deletes workspaces in it; a workspace admin edits its workspace; billing roles and
 * workspace members change none of these.
 */
export function grantAllows(grant: GrantLike, action: Action, target: Target): boolean {
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

/** A key acts for its user: its role and scope and one of the user's grants must all allow the change. */
export function allows(key: KeyScope, grants: readonly GrantLike[], action: Action, target: Target = {}): boolean {
  return keyAllows(key, action, target) && grants.some((g) => grantAllows(g, action, target));
}

/**
 * Billing, as the service's access tables give it: org admins and billing admins manage it,
 * billing viewers read it too. The key must reach the whole organisation (an org-admin key, or a
 * viewer key to read); a workgroup- or workspace-scoped key sees no bills.
 */
export function billingKeyAllows(role: Role, mode: 'read' | 'manage'): boolean {
  return role === 'org-admin' || (mode === 'read' && role === 'viewer');
}

/** Whether one of the user's organisation-wide grants lets it read or manage billing. */
export function billingGrantAllows(grants: readonly GrantLike[], mode: 'read' | 'manage'): boolean {
  const roles = mode === 'read' ? ['org-admin', 'billing-admin', 'billing-viewer'] : ['org-admin', 'billing-admin'];
  return grants.some((g) => roles.includes(g.role) && g.resource_id === null);
}

/**
 * Running GSQL on a workspace's graph (statements, installed and interpreted queries) takes what editing the
 * workspace takes: a statement or query may change the schema and the data, and the control plane cannot tell
 * one that only reads without running it. Reading the schema and the types' counts is a read, open to every key
 * of the organisation as every read is: a workspace member sees the graph and cannot change it.
 */
export const GRAPH_RUN_ACTION = 'workspace:edit' satisfies Action;
