import type { Role } from '../schemas/api-key.js';
import type { Tier } from './catalog.js';

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
