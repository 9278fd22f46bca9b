import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAllowed } from './permissions.js';
import type { Action, Role } from '../schemas/api-key.js';
import type { Principal } from './principal.js';
import type { Grant } from '../schemas/user.js';

const orgAdmin: Grant[] = [{ role: 'org-admin', resource_id: null }];

const principal = (role: Role, grants: Grant[] = orgAdmin): Principal => ({
  orgId: 'o',
  orgName: 'o',
  tier: 'enterprise',
  keyId: 'k',
  keyName: 'k',
  role,
  workgroupIds: ['wg1'],
  workspaceIds: ['ws1'],
  grants,
  platformAdmin: false,
});

describe('isAllowed', () => {
  const cases: Array<[Role, Action, { workgroupId?: string; workspaceId?: string }, boolean]> = [
    ['org-admin', 'org:admin', {}, true],
    ['org-admin', 'workspace:delete', { workgroupId: 'any' }, true],
    ['viewer', 'workgroup:edit', { workgroupId: 'wg1' }, false],
    ['viewer', 'workspace:edit', { workspaceId: 'ws1' }, false],
    ['workgroup-admin', 'workgroup:edit', { workgroupId: 'wg1' }, true],
    ['workgroup-admin', 'workgroup:edit', { workgroupId: 'wg2' }, false],
    ['workgroup-admin', 'workspace:create', { workgroupId: 'wg1' }, true],
    ['workgroup-admin', 'workspace:delete', { workgroupId: 'wg1' }, true],
    ['workgroup-admin', 'org:admin', { workgroupId: 'wg1' }, false],
    ['workspace-admin', 'workspace:edit', { workspaceId: 'ws1' }, true],
    ['workspace-admin', 'workspace:edit', { workspaceId: 'ws2' }, false],
    ['workspace-admin', 'workspace:delete', { workspaceId: 'ws1', workgroupId: 'wg1' }, false],
    ['workspace-admin', 'workgroup:edit', { workgroupId: 'wg1' }, false],
  ];
  for (const [role, action, target, expected] of cases) {
    it(`${role} ${expected ? 'may' : 'may not'} ${action} ${JSON.stringify(target)}`, () => {
      assert.equal(isAllowed(principal(role), action, target), expected);
    });
  }

  // The key's role is a ceiling: its user's grants bound it too.
  const granted: Array<[Grant[], Action, { workgroupId?: string; workspaceId?: string }, boolean]> = [
    [[], 'workspace:edit', { workspaceId: 'ws1' }, false],
    [[{ role: 'workspace-admin', resource_id: 'ws1' }], 'workspace:edit', { workspaceId: 'ws1' }, true],
    [[{ role: 'workspace-admin', resource_id: 'ws1' }], 'workspace:edit', { workspaceId: 'ws2' }, false],
    [[{ role: 'workspace-admin', resource_id: 'ws1' }], 'workspace:create', { workgroupId: 'wg1' }, false],
    [[{ role: 'workspace-member', resource_id: 'ws1' }], 'workspace:edit', { workspaceId: 'ws1' }, false],
    [[{ role: 'workgroup-admin', resource_id: 'wg1' }], 'workspace:delete', { workgroupId: 'wg1' }, true],
    [[{ role: 'workgroup-admin', resource_id: 'wg1' }], 'org:admin', {}, false],
    [[{ role: 'billing-admin', resource_id: null }], 'workgroup:edit', { workgroupId: 'wg1' }, false],
  ];
  for (const [grants, action, target, expected] of granted) {
    it(`an org-admin key of a user with ${JSON.stringify(grants)} ${expected ? 'may' : 'may not'} ${action}`, () => {
      assert.equal(isAllowed(principal('org-admin', grants), action, target), expected);
    });
  }
});
