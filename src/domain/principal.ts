import type { Role } from '../schemas/api-key.js';
import type { Grant } from '../schemas/user.js';
import type { Tier } from './catalog.js';

/**
 * The authenticated caller: one API key of one organisation, acting for one user. What it may
 * do is what both the key's role and scope and the user's grants allow (permissions.ts).
 */
export interface Principal {
  orgId: string;
  orgName: string;
  tier: Tier;
  keyId: string;
  keyName: string;
  role: Role;
  workgroupIds: readonly string[];
  workspaceIds: readonly string[];
  /** The key's user; undefined only for a key whose user row is missing (then it is refused). */
  userId?: string;
  /** The user's grants in the organisation. */
  grants: readonly Grant[];
  /** A platform administrator sees every organisation's providers (GET /cloud-providers/all). */
  platformAdmin: boolean;
  /**
   * The engine acting for the workgroup pool's own organisation (src/domain/workgroup-pool.ts):
   * its size is ACACIA_POOL_SIZE, not a tier's, so tier quotas do not apply to it. No API key
   * carries it.
   */
  quotaExempt?: true;
}
