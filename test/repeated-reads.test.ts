import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AcaciaClient } from '../src/client/index.js';
import type { ManualClock } from '../src/domain/clock.js';
import { findWorkgroupById, updateWorkgroup } from '../src/store/repositories/workgroups.js';
import { openStore } from '../src/store/store.js';
import { iso } from '../src/domain/time.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

/** Repeated reads of workgroups, workspaces and databases: a read after a change shows the change, whoever made it. */
describe(`repeated reads (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    admin = server.client;
  });
  after(() => server.close());

  it('answer each request with its own RequestID and the same record and ETag', async () => {
    const wg = await newWorkgroup(admin, 'rc-ids');
    const ws = await activeWorkspace(admin, wg);
    const first = await admin.workspaces.get(wg, ws.workspace_id!);
    const second = await admin.workspaces.get(wg, ws.workspace_id!);
    assert.deepEqual(assertOk(second), assertOk(first));
    assert.notEqual(second.body.RequestID, first.body.RequestID);
    assert.equal(second.headers['x-request-id'], second.body.RequestID);
    assert.equal(second.headers.etag, `"${assertOk(first).version_number}"`);
    assert.equal(second.headers['content-type'], 'application/json; charset=utf-8');
  });

  it("answer each query as asked: ?limit= pages, a poller's ?_t= changes nothing and sees a change", async () => {
    const wg = await newWorkgroup(admin, 'rc-query');
    await newWorkgroup(admin, 'rc-query-2');
    const one = await admin.workgroups.list({ limit: 1 });
    const two = await admin.workgroups.list({ limit: 2 });
    assert.equal(assertOk(one).length, 1);
    assert.equal(assertOk(two).length, 2);
    assert.equal(assertOk(await admin.workgroups.list({ limit: 1 })).length, 1);
    const polled = await admin.workgroups.get(wg, { query: { _t: 1 } });
    assert.deepEqual(assertOk(await admin.workgroups.get(wg, { query: { _t: 2 } })), assertOk(polled));
    assertOk(await admin.workgroups.update(wg, { workgroup_name: 'rc-query-renamed' }));
    assert.equal(assertOk(await admin.workgroups.get(wg, { query: { _t: 3 } })).name, 'rc-query-renamed');
    assert.equal(assertOk(await admin.workgroups.get(wg, { query: { _t: 2 } })).name, 'rc-query-renamed');
  });

  it('show a change made through the API, and the engine moving a workspace on', async () => {
    const wg = await newWorkgroup(admin, 'rc-changes');
    const ws = (await activeWorkspace(admin, wg)).workspace_id!;
    const before = assertOk(await admin.workspaces.get(wg, ws));
    assertOk(await admin.workspaces.get(wg, ws));
    assertOk(await admin.workspaces.update(wg, ws, { auto_stop_minutes: 30 }));
    const changed = await admin.workspaces.get(wg, ws);
    assert.equal(assertOk(changed).auto_stop_minutes, 30);
    assert.notEqual(changed.headers.etag, `"${before.version_number}"`);
    assert.equal(
      assertOk(await admin.workgroups.get(wg)).workspaces.find((w) => w.workspace_id === ws)?.auto_stop_minutes,
      30,
    );

    assert.equal(assertOk(await admin.workspaces.pause(wg, ws)).status, 'Pausing');
    await waitForStatus(admin, wg, ws, 'Stopped');
    assert.equal(
      assertOk(await admin.workgroups.get(wg)).workspaces.find((w) => w.workspace_id === ws)?.status,
      'Stopped',
    );
    assert.equal(
      assertOk(await admin.workgroups.list()).find((w) => w.workgroup_id === wg)?.workspaces[0]?.status,
      'Stopped',
    );
  });

  it('show a change committed by another connection to the store at once', async () => {
    const wg = await newWorkgroup(admin, 'rc-other');
    assert.equal(assertOk(await admin.workgroups.get(wg)).name, 'rc-other');
    assert.equal(assertOk(await admin.workgroups.get(wg)).name, 'rc-other');
    // As `acacia` run beside the server would: its own connection, its own commit.
    const other = await openStore({ dataDir: server.store.dataDir, databaseUrl: server.store.databaseUrl });
    try {
      const row = (await findWorkgroupById(other.db, wg))!;
      assert.ok(await other.transaction((tx) => updateWorkgroup(tx, row, { name: 'renamed-elsewhere' }, Date.now())));
    } finally {
      await other.close();
    }
    assert.equal(assertOk(await admin.workgroups.get(wg)).name, 'renamed-elsewhere');
  });

  it('never give one caller an answer read by another', async () => {
    const wg = await newWorkgroup(admin, 'rc-callers');
    const stranger = await server.orgClient('rc-other-org');
    assertOk(await stranger.workgroups.list());
    // Nothing is written between these reads and the stranger's.
    assertOk(await admin.workgroups.get(wg));
    assertOk(await admin.workgroups.list());
    assertError(await stranger.workgroups.get(wg), 404, 'Not-Found', 'workgroupID');
    assert.deepEqual(assertOk(await stranger.workgroups.list()), []);
  });

  it('stop showing an allow-list entry as in force once it expires, with no write in between', async () => {
    const wg = await newWorkgroup(admin, 'rc-expiry');
    assertOk(await admin.allowList.enable(wg));
    const clock = server.running.services.clock as ManualClock;
    assertOk(await admin.allowList.create(wg, { cidr: '127.0.0.1/32', expires_at: iso(clock.now() + 3600_000) }));
    assert.equal(assertOk(await admin.workgroups.get(wg)).is_current_ip_allowed, true);
    assert.equal(assertOk(await admin.workgroups.get(wg)).is_current_ip_allowed, true);
    // Time passes in this process only: nothing is written to the store.
    clock.advance(2 * 3600_000);
    assert.equal(assertOk(await admin.workgroups.get(wg)).is_current_ip_allowed, false);
  });
});
