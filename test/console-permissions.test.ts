import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { can, canReadBilling } from '../console/src/permissions.js';
import { authorizeBilling, isAllowed } from '../src/domain/permissions.js';
import type { Principal } from '../src/domain/principal.js';
import { roles, type Action } from '../src/schemas/api-key.js';
import type { Grant } from '../src/schemas/user.js';

const actions: Action[] = ['org:admin', 'workgroup:edit', 'workspace:create', 'workspace:edit', 'workspace:delete'];
const targets = [
  {},
  { workgroupId: 'wg-in' },
  { workgroupId: 'wg-out' },
  { workgroupId: 'wg-in', workspaceId: 'ws-in' },
  { workgroupId: 'wg-in', workspaceId: 'ws-out' },
  { workgroupId: 'wg-out', workspaceId: 'ws-in' },
];

/** Users' grants a key may act for: its role and theirs both bound it. */
const userGrants: Grant[][] = [
  [{ role: 'org-admin', resource_id: null }],
  [],
  [{ role: 'workgroup-admin', resource_id: 'wg-in' }],
  [{ role: 'workspace-admin', resource_id: 'ws-in' }],
  [{ role: 'workspace-member', resource_id: 'ws-in' }],
  [{ role: 'billing-viewer', resource_id: null }],
];

describe('console permissions', () => {
  it('offers exactly what the server allows, for every role, action and target', () => {
    for (const [role, grants] of roles.flatMap((r) => userGrants.map((g) => [r, g] as const))) {
      const scope = {
        workgroup_ids: role === 'workgroup-admin' ? ['wg-in'] : [],
        workspace_ids: role === 'workspace-admin' ? ['ws-in'] : [],
      };
      const principal: Principal = {
        orgId: 'org',
        orgName: 'org',
        tier: 'enterprise',
        keyId: 'key',
        keyName: 'key',
        role,
        workgroupIds: scope.workgroup_ids,
        workspaceIds: scope.workspace_ids,
        grants,
        platformAdmin: false,
      };
      for (const action of actions)
        for (const target of targets)
          assert.equal(
            can({ role, ...scope, user_grants: grants }, action, target),
            isAllowed(principal, action, target),
            `${role} ${JSON.stringify(grants)} ${action} ${JSON.stringify(target)}`,
          );
      // The billing page shows credit exactly to the keys the server lets read it.
      const reads = (() => {
        try {
          authorizeBilling(principal, 'read');
          return true;
        } catch {
          return false;
        }
      })();
      assert.equal(canReadBilling({ role, user_grants: grants }), reads, `billing ${role} ${JSON.stringify(grants)}`);
    }
  });
});
