import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AllowListEntry } from '../store/repositories/allow-list.js';
import { checkAddress } from './allow-list-rules.js';

const entry = (id: string, cidr: string, expiresAt: number | null): AllowListEntry => ({
  id,
  org_id: 'org',
  workgroup_id: 'wg',
  cidr,
  note: null,
  expires_at: expiresAt,
  created_at: 0,
  updated_at: 0,
});

describe('checkAddress', () => {
  const entries = [
    entry('old', '10.0.0.0/8', 500),
    entry('later', '192.0.2.0/24', 3000),
    entry('sooner', '198.51.100.0/24', 2000),
    entry('always', '203.0.113.0/24', null),
  ];

  it('allows an address inside an entry in force and names it', () => {
    const check = checkAddress(true, entries, '192.0.2.9', 1000);
    assert.equal(check.allowed, true);
    assert.equal(check.matched?.id, 'later');
  });

  it('refuses an address whose only entry has expired', () =>
    assert.equal(checkAddress(true, entries, '10.1.2.3', 1000).allowed, false));

  it('allows everyone while the list is disabled', () => {
    assert.equal(checkAddress(false, entries, '10.1.2.3', 1000).allowed, true);
  });
});
