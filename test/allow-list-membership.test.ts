import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator } from 'kysely';
import { API_PREFIX, type AcaciaClient, type WorkgroupRecord } from '../src/client/index.js';
import type { CurrentIpRecord } from '../src/schemas/allow-list.js';
import { migrations } from '../src/store/migrations/index.js';
import { assertOk } from './helpers/assert.js';
import { freshStore, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { newWorkgroup } from './helpers/workspaces.js';

/**
 * `is_current_ip_allowed` is decided by the store from each entry's first and last address
 * (migration 0033); `…/allow_list/current` and the gateway decide it by parsing the entries
 * (checkAddress). The two must agree for every caller.
 */
describe(`is_current_ip_allowed, decided by the store (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_TRUST_PROXY: '127.0.0.1' });
    c = await server.orgClient('membership');
  });
  after(() => server.close());

  /** What the three answers say for a caller at `ip`: the workgroup, its item in the list, and current. */
  async function answers(wg: string, ip: string, client = c): Promise<boolean[]> {
    const headers = { 'x-forwarded-for': ip };
    const one = assertOk(await client.request<WorkgroupRecord>('GET', `${API_PREFIX}/workgroups/${wg}`, { headers }));
    const all = assertOk(await client.request<WorkgroupRecord[]>('GET', `${API_PREFIX}/workgroups`, { headers }));
    const current = assertOk(
      await client.request<CurrentIpRecord>('GET', `${API_PREFIX}/workgroups/${wg}/allow_list/current`, { headers }),
    );
    return [
      one.is_current_ip_allowed!,
      all.find((w) => w.workgroup_id === wg)!.is_current_ip_allowed!,
      current.allowed,
    ];
  }

  async function expect(wg: string, cases: ReadonlyArray<readonly [string, boolean]>): Promise<void> {
    for (const [ip, allowed] of cases)
      assert.deepEqual(await answers(wg, ip), [allowed, allowed, allowed], `caller ${ip}`);
  }

  it('agrees with the parsed rule for both families, edges of ranges, mapped addresses and expiry', async () => {
    const wg = await newWorkgroup(c, 'ranges');
    const other = await newWorkgroup(c, 'elsewhere');
    assertOk(await c.allowList.create(other, { cidr: '0.0.0.0/0' }));
    assertOk(await c.allowList.enable(other));
    assertOk(await c.allowList.enable(wg));
    await expect(wg, [
      ['10.1.2.3', false],
      ['2001:db8::1', false],
    ]);

    assertOk(await c.allowList.create(wg, { cidr: '10.0.0.0/8' }));
    assertOk(await c.allowList.create(wg, { cidr: '192.0.2.7' }));
    const v6 = assertOk(await c.allowList.create(wg, { cidr: '2001:db8::/32' }));
    const now = server.running.services.clock.now();
    assertOk(
      await c.allowList.create(wg, { cidr: '198.51.100.0/24', expires_at: new Date(now + 3_600_000).toISOString() }),
    );
    await expect(wg, [
      ['10.0.0.0', true],
      ['10.255.255.255', true],
      ['11.0.0.0', false],
      ['9.255.255.255', false],
      ['::ffff:10.1.2.3', true],
      ['192.0.2.7', true],
      ['192.0.2.8', false],
      ['192.0.2.6', false],
      ['2001:db8::', true],
      ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', true],
      ['2001:db9::', false],
      ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', false],
      ['::a00:1', false],
      ['198.51.100.9', true],
      ['127.0.0.1', false],
    ]);

    // An entry stops applying at its expiry, before the engine removes it.
    assertOk(await c.moveClock({ advance_seconds: 3600 }));
    await expect(wg, [['198.51.100.9', false]]);

    // A changed range is compared as changed.
    assertOk(await c.allowList.update(wg, v6.id, { cidr: '2001:db9::/32' }));
    await expect(wg, [
      ['2001:db8::1', false],
      ['2001:db9::1', true],
    ]);
    // The other workgroup's list does not count; a disabled list allows everyone.
    assertOk(await c.allowList.disable(wg));
    await expect(wg, [['11.0.0.0', true]]);
  });

  it('entries made before the ranges were kept get them when the store is migrated', async () => {
    const store = await freshStore();
    const env = { ACACIA_TRUST_PROXY: '127.0.0.1' };
    const earlier = await startTestServer(env, store);
    try {
      const wg = await newWorkgroup(earlier.client);
      assertOk(await earlier.client.allowList.create(wg, { cidr: '10.0.0.0/8' }));
      assertOk(await earlier.client.allowList.create(wg, { cidr: '2001:db8::/32' }));
      assertOk(await earlier.client.allowList.enable(wg));
      // The store as the version before kept it: the entries without their ranges.
      const migrator = new Migrator({
        db: earlier.running.services.store.db,
        provider: { getMigrations: async () => migrations },
      });
      const { error } = await migrator.migrateTo('0032-allow-list-entry-counts');
      assert.equal(error, undefined);
      await earlier.restart();
      const cases = [
        ['10.9.8.7', true],
        ['2001:db8::7', true],
        ['11.0.0.1', false],
      ] as const;
      for (const [ip, allowed] of cases)
        assert.deepEqual(await answers(wg, ip, earlier.client), [allowed, allowed, allowed], `caller ${ip}`);
    } finally {
      await earlier.close();
      await store.dispose();
    }
  });
});
