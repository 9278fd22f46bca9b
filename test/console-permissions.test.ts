import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { can } from '../console/src/permissions.js';
import { isAllowed } from '../src/domain/permissions.js';
import type { Principal } from '../src/domain/principal.js';
import { roles, type Action } from '../src/schemas/api-key.js';

const actions: Action[] = ['org:admin', 'workgroup:edit', 'workspace:create', 'workspace:edit', 'workspace:delete'];
const targets = [
  {},
  { workgroupId: 'wg-in' },
  { workgroupId: 'wg-out' },
  { workgroupId: 'wg-in', workspaceId: 'ws-in' },
  { workgroupId: 'wg-in', workspaceId: 'ws-out' },
  { workgroupId: 'wg-out', workspaceId: 'ws-in' },
];

describe('console permissions', () => {
  it('offers exactly what the server allows, for every role, action and target', () => {
    for (const role of roles) {
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
      };
      for (const action of actions)
        for (const target of targets)
          assert.equal(
            can({ role, ...scope }, action, target),
            isAllowed(principal, action, target),
            `${role} ${action} ${JSON.stringify(target)}`,
          );
    }
  });
});
