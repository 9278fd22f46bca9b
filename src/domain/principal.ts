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
  /**
   * The engine acting for the workgroup pool's own organisation (src/domain/workgroup-pool.ts):
   * its size is ACACIA_POOL_SIZE, not a tier's, so tier quotas do not apply to it. No API key
   * carries it.
   */
  quotaExempt?: true;
}
