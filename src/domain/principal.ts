import type { Tier } from './catalog.js';

export const roles = ['org-admin', 'workgroup-admin', 'workspace-admin', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** The authenticated caller: one API key of one organisation. */
export interface Principal {
  orgId: string;
  orgName: string;
  tier: Tier;
  keyId: string;
  keyName: string;
  role: Role;
  workgroupIds: readonly string[];
  workspaceIds: readonly string[];
}
