import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForDeletion } from './helpers/workspaces.js';

describe(`tier quotas (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
  });
  after(() => server.close());

  it('free tier: one RW and two RO workspaces, sizes up to TG-4, auto-stop always on', async () => {
    const c = await server.orgClient('free-quota', { tier: 'free' });
    const wg = await newWorkgroup(c);
    const rw = await activeWorkspace(c, wg, { name: 'free-rw' });
    assert.equal(rw.auto_stop_minutes, 60, 'a missing auto_stop_minutes becomes 60 on the free tier');
    assertError(await c.workspaces.create(wg, { name: 'free-rw-2' }), 403, 'Quota-Exceed', 'is_rw');
    assertOk(
      await c.workspaces.create(wg, {
        name: 'free-ro-1',
        is_rw: false,
        tg_database_id: rw.database_id!,
        auto_stop_minutes: 0,
      }),
    );
    assertOk(await c.workspaces.create(wg, { name: 'free-ro-2', is_rw: false, tg_database_id: rw.database_id! }));
    assertError(
      await c.workspaces.create(wg, { name: 'free-ro-3', is_rw: false, tg_database_id: rw.database_id! }),
      403,
      'Quota-Exceed',
      'is_rw',
    );
    assertError(
      await c.workspaces.update(wg, rw.workspace_id!, { workspace_type_name: 'TG-6' }),
      403,
      'Quota-Exceed',
      'workspace_type_name',
    );
    assert.equal(
      assertOk(await c.workspaces.update(wg, rw.workspace_id!, { auto_stop_minutes: 0 })).auto_stop_minutes,
      60,
    );

    // The RW quota counts across the organisation: another workgroup gets no RW of its own.
    const other = await newWorkgroup(c);
    const elsewhere = await c.workspaces.create(other, { name: 'other-rw' });
    assert.match(assertError(elsewhere, 403, 'Quota-Exceed', 'is_rw').Reason, /organisation has 1\b/);
  });

  it('counts memory × replicas of every workspace against the tier', async () => {
    // paid: 5120 GB, max TG-16 (1024 GB). Two RW TG-16 with HA = 4096 GB.
    const c = await server.orgClient('paid-memory', { tier: 'paid' });
    const wg = await newWorkgroup(c);
    const a = await activeWorkspace(c, wg, { name: 'mem-a', workspace_type_name: 'TG-16', enable_ha: true });
    await activeWorkspace(c, wg, { name: 'mem-b', workspace_type_name: 'TG-16', enable_ha: true });
    const ro = await c.workspaces.create(wg, {
      name: 'mem-ro',
      is_rw: false,
      tg_database_id: a.database_id!,
      workspace_type_name: 'TG-16',
    });
    assertOk(ro);
    const tooMuch = await c.workspaces.create(wg, {
      name: 'mem-ro-2',
      is_rw: false,
      tg_database_id: a.database_id!,
      workspace_type_name: 'TG-1',
    });
    assert.match(assertError(tooMuch, 403, 'Quota-Exceed', 'workspace_type_name').Reason, /5120 GB/);
    // Turning HA off frees memory; a resize that would exceed it is refused.
    assertOk(await c.workspaces.update(wg, a.workspace_id!, { enable_ha: false }));
    assertError(
      await c.workspaces.update(wg, a.workspace_id!, { workspace_type_name: 'TG-24' }),
      403,
      'Quota-Exceed',
      'workspace_type_name',
    );
  });

  it('a deleted workspace no longer counts', async () => {
    const c = await server.orgClient('free-recycle', { tier: 'free' });
    const wg = await newWorkgroup(c);
    const rw = await activeWorkspace(c, wg, { name: 'first' });
    assertOk(await c.workspaces.delete(wg, rw.workspace_id!));
    await waitForDeletion(c, wg, rw.workspace_id!);
    assertOk(await c.workspaces.create(wg, { name: 'second' }));
  });

  it('concurrent creates cannot overshoot a quota', async () => {
    const c = await server.orgClient('free-race', { tier: 'free' });
    const wg = await newWorkgroup(c);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => c.workspaces.create(wg, { name: `race-${i}` })),
    );
    const created = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    assert.equal(created.length, 1, 'exactly one RW workspace fits the free tier');
    for (const r of refused) assertError(r, 403, 'Quota-Exceed', 'is_rw');
    assert.equal(assertOk(await c.workspaces.list(wg)).length, 1);
  });
});
