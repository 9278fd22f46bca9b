import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { autoStopIfIdle } from '../src/domain/workspace-operations.js';
import { idleWorkspaces, recordActivity } from '../src/store/repositories/workspaces.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForDeletion, waitForStatus } from './helpers/workspaces.js';

// ACACIA_SIM_SPEED=0 finishes each step on the engine's next tick; `slow:` directives hold a
// workspace in a transitional state until the manual clock passes them.
describe(`workspace lifecycle (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;

  let orgs = 0;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
  });
  // Each test has an organisation of its own, so tier quotas never couple tests.
  beforeEach(async () => {
    c = await server.orgClient(`lifecycle-${++orgs}`);
    wg = await newWorkgroup(c, 'lifecycle');
  });
  after(() => server.close());

  const advance = async (seconds: number) => assertOk(await c.moveClock({ advance_seconds: seconds }));
  const ops = async (ws: string) => resultOf(await c.operations.list({ resource_id: ws }));

  it('create: Creating → Active, one operation', async () => {
    const created = assertOk(await c.workspaces.create(wg, { name: 'row-create', workspace_type_name: 'TG-1' }));
    assert.equal(created.status, 'Creating');
    assert.equal(created.condition_type, 'Create');
    const ws = await waitForStatus(c, wg, created.workspace_id!, 'Active');
    assert.equal(ws.condition_type, 'Normal');
    assert.equal(ws.display_status, 'Ready');
    assert.deepEqual(ws.workspace_type, { typeName: 'TG-1', cpu: '8', memory: '64Gi', partition: 1, ha: 1 });
    assert.equal('vertex_count' in ws || 'edge_count' in ws, false, 'counts no driver reports are absent, not 0');
    const list = await ops(ws.workspace_id!);
    assert.deepEqual(
      list.map((o) => [o.kind, o.state]),
      [['workspace.create', 'succeeded']],
    );
    assert.deepEqual(assertOk(await c.operations.get(list[0]!.id)), list[0]);
  });

  it('pause: Active → Pausing → Stopped; with auto-start → Idle; resume → Resuming → Active', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'row-pause', x_test_env: 'slow:pause=30s,slow:resume=30s' });
    const id = ws.workspace_id!;
    assert.equal(assertOk(await c.workspaces.pause(wg, id)).status, 'Pausing');
    await advance(30);
    await waitForStatus(c, wg, id, 'Stopped');
    assert.equal(assertOk(await c.workspaces.resume(wg, id)).status, 'Resuming');
    await advance(30);
    await waitForStatus(c, wg, id, 'Active');

    assertOk(await c.workspaces.update(wg, id, { enable_auto_start: true }));
    assert.equal(assertOk(await c.workspaces.update(wg, id, { pause: true })).status, 'Pausing');
    await advance(30);
    const idle = await waitForStatus(c, wg, id, 'Idle');
    assert.equal(idle.display_status, 'Idle (starts on access)');
    assert.equal(assertOk(await c.workspaces.update(wg, id, { pause: false })).status, 'Resuming');
    await advance(30);
    await waitForStatus(c, wg, id, 'Active');
  });

  it('lists operations in pages with limit and cursor', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'row-ops-pages' });
    const id = ws.workspace_id!;
    assertOk(await c.workspaces.pause(wg, id));
    await waitForStatus(c, wg, id, 'Stopped');
    assertOk(await c.workspaces.resume(wg, id));
    await waitForStatus(c, wg, id, 'Active');
    const all = (await ops(id)).map((o) => o.kind);
    assert.deepEqual(all, ['workspace.create', 'workspace.pause', 'workspace.resume']);
    const first = await c.operations.list({ resource_id: id, limit: 2 });
    assert.deepEqual(
      assertOk(first).map((o) => o.kind),
      all.slice(0, 2),
    );
    const cursor = first.headers['x-next-cursor'] as string;
    const second = await c.operations.list({ resource_id: id, limit: 2, cursor });
    assert.deepEqual(
      assertOk(second).map((o) => o.kind),
      all.slice(2),
    );
    assert.equal(second.headers['x-next-cursor'], undefined, 'the last page has no next cursor');
    assertError(await c.operations.list({ resource_id: id, limit: 1001 }), 400, 'Bad-Request', 'limit');
    assertError(await c.operations.list({ resource_id: id, cursor: 'bogus' }), 400, 'Bad-Request', 'cursor');
  });

  it('pause of a Stopped workspace and resume of an Active one are no-ops', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'row-noop' });
    const id = ws.workspace_id!;
    const resumed = assertOk(await c.workspaces.resume(wg, id));
    assert.equal(resumed.status, 'Active');
    assertOk(await c.workspaces.pause(wg, id));
    await waitForStatus(c, wg, id, 'Stopped');
    const before = (await ops(id)).length;
    assert.equal(assertOk(await c.workspaces.pause(wg, id)).status, 'Stopped');
    assert.equal(assertOk(await c.workspaces.update(wg, id, { pause: true })).status, 'Stopped');
    assert.equal((await ops(id)).length, before, 'a no-op starts no operation');
  });

  it('auto-stop pauses an Active workspace after its idle minutes, by the manual clock', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'row-autostop', auto_stop_minutes: 30 });
    const id = ws.workspace_id!;
    await advance(29 * 60);
    assert.equal(resultOf(await c.workspaces.get(wg, id)).status, 'Active');
    await advance(60);
    await waitForStatus(c, wg, id, 'Stopped');
    const pause = (await ops(id)).find((o) => o.kind === 'workspace.pause')!;
    assert.equal(pause.params.reason, 'auto-stop');
  });

  it('auto-stop spares a workspace used after it was found idle', async () => {
    const id = (await activeWorkspace(c, wg, { name: 'row-autostop-race', auto_stop_minutes: 30 })).workspace_id!;
    const { store, clock } = server.running.services;
    const due = clock.now() + 31 * 60_000;
    // The reconciler's order: find the idle workspaces, then pause each; a request through
    // the gateway lands in between.
    assert.ok((await idleWorkspaces(store.db, due, 1000)).some((w) => w.id === id));
    await recordActivity(store.db, id, due);
    assert.equal(await store.transaction((trx) => autoStopIfIdle(trx, id, due)), false);
    assert.equal(resultOf(await c.workspaces.get(wg, id)).status, 'Active');
    assert.equal(await store.transaction((trx) => autoStopIfIdle(trx, id, due + 30 * 60_000)), true);
    assert.equal(resultOf(await c.workspaces.get(wg, id)).status, 'Pausing');
  });

  it('resize, HA change and immediate upgrade: Active → Updating → Active', async () => {
    const ws = await activeWorkspace(c, wg, {
      name: 'row-update',
      workspace_type_name: 'TG-1',
      tg_version: '4.1.3',
      x_test_env: 'slow:resize=60s',
    });
    const id = ws.workspace_id!;
    const updating = assertOk(await c.workspaces.update(wg, id, { workspace_type_name: 'TG-2' }));
    assert.equal(updating.status, 'Updating');
    assert.equal(updating.condition_type, 'Update');
    await advance(60);
    const resized = await waitForStatus(c, wg, id, 'Active');
    assert.equal(resized.workspace_type?.typeName, 'TG-2');

    const ha = assertOk(await c.workspaces.update(wg, id, { enable_ha: true }));
    assert.equal(ha.status, 'Updating');
    const withHa = await waitForStatus(c, wg, id, 'Active');
    assert.equal(withHa.replicas, 3);
    assert.equal(withHa.workspace_type?.ha, 3);

    const upgrading = assertOk(
      await c.workspaces.update(wg, id, { desired_tg_version: '4.2.1', update_strategy: 'immediate' }),
    );
    assert.equal(upgrading.status, 'Updating');
    const upgraded = await waitForStatus(c, wg, id, 'Active');
    assert.equal(upgraded.tg_version, '4.2.1');
    assert.equal(upgraded.desired_tg_version, undefined);
  });

  it('an upgrade without update_strategy immediate waits for the maintenance window', async () => {
    // The window: Wednesday 03:00 in Tokyo.
    const ws = await activeWorkspace(c, wg, {
      name: 'row-window',
      tg_version: '4.1.0',
      maintenance_window_day_of_week: 3,
      maintenance_window_hour_of_day: 3,
      maintenance_window_time_zone: 'Asia/Tokyo',
    });
    const id = ws.workspace_id!;
    const pending = assertOk(await c.workspaces.update(wg, id, { desired_tg_version: '4.2.0' }));
    assert.equal(pending.status, 'Active');
    assert.equal(pending.desired_tg_version, '4.2.0');
    await advance(8 * 24 * 3600);
    const upgraded = await waitForStatus(c, wg, id, 'Active');
    assert.equal(upgraded.tg_version, '4.2.0');
    assert.ok(upgraded.last_maintenance);
    const local = new Date(upgraded.last_maintenance!).toLocaleString('en-US', {
      timeZone: 'Asia/Tokyo',
      weekday: 'long',
      hour: 'numeric',
      hour12: false,
    });
    assert.match(local, /Wednesday.*03|Wednesday, 3/);
  });

  it('auto_upgrade_state disabled holds a pending upgrade back until it is enabled again', async () => {
    const ws = await activeWorkspace(c, wg, {
      name: 'row-upgrade-held',
      tg_version: '4.1.0',
      maintenance_window_day_of_week: 1,
      maintenance_window_hour_of_day: 4,
    });
    const id = ws.workspace_id!;
    const held = assertOk(
      await c.workspaces.update(wg, id, { desired_tg_version: '4.2.0', auto_upgrade_state: 'disabled' }),
    );
    assert.equal(held.auto_upgrade_state, 'disabled');
    await advance(15 * 24 * 3600);
    const waiting = resultOf(await c.workspaces.get(wg, id));
    assert.equal(waiting.tg_version, '4.1.0', 'two maintenance windows passed without the upgrade');
    assert.equal(waiting.desired_tg_version, '4.2.0');
    assertOk(await c.workspaces.update(wg, id, { auto_upgrade_state: 'enabled' }));
    await advance(8 * 24 * 3600);
    assert.equal((await waitForStatus(c, wg, id, 'Active')).tg_version, '4.2.0', 'the next window ran it');
  });

  it('refresh of a read-only workspace: Active → Refreshing → Active; a read-write one refuses', async () => {
    const rw = await activeWorkspace(c, wg, { name: 'row-refresh-rw', x_test_env: 'topology=3GiB' });
    const ro = await activeWorkspace(c, wg, { name: 'row-refresh-ro', is_rw: false, tg_database_id: rw.database_id! });
    const refreshing = assertOk(await c.workspaces.refresh(wg, ro.workspace_id!));
    assert.equal(refreshing.status, 'Refreshing');
    assert.equal(refreshing.refresh_status, 'InProgress');
    const refreshed = await waitForStatus(c, wg, ro.workspace_id!, 'Active');
    assert.equal(refreshed.refresh_status, 'Succeeded');
    assert.equal(refreshed.graph_topology_size_bytes, 3 * 1024 ** 3);
    assert.ok(refreshed.snapshot_time);
    assertError(await c.workspaces.refresh(wg, rw.workspace_id!), 400, 'Bad-Request', 'workspaceID');
  });

  it('delete from every stable state: Deleting → gone', async () => {
    const active = await activeWorkspace(c, wg, { name: 'row-delete-active' });
    assert.equal(assertOk(await c.workspaces.delete(wg, active.workspace_id!)).status, 'Deleting');
    await waitForDeletion(c, wg, active.workspace_id!);
    assertError(await c.workspaces.get(wg, active.workspace_id!), 404, 'Not-Found', 'workspaceID');

    const stopped = await activeWorkspace(c, wg, { name: 'row-delete-stopped' });
    assertOk(await c.workspaces.pause(wg, stopped.workspace_id!));
    await waitForStatus(c, wg, stopped.workspace_id!, 'Stopped');
    assertOk(await c.workspaces.delete(wg, stopped.workspace_id!));
    await waitForDeletion(c, wg, stopped.workspace_id!);

    const idle = await activeWorkspace(c, wg, { name: 'row-delete-idle', enable_auto_start: true });
    assertOk(await c.workspaces.pause(wg, idle.workspace_id!));
    await waitForStatus(c, wg, idle.workspace_id!, 'Idle');
    assert.equal(assertOk(await c.workspaces.delete(wg, idle.workspace_id!)).status, 'Deleting');
    await waitForDeletion(c, wg, idle.workspace_id!);
  });

  it('a driver failure after retries leaves it Failed; resume re-runs the failed step; delete works', async () => {
    const created = assertOk(await c.workspaces.create(wg, { name: 'row-failed', x_test_env: 'fail:create' }));
    const failed = await waitForStatus(c, wg, created.workspace_id!, 'Failed');
    assert.match(failed.err_message!, /simulated create failure/);
    const [op] = await ops(created.workspace_id!);
    assert.equal(op!.state, 'failed');
    assert.equal(op!.attempt, 3);

    assertOk(await c.workspaces.update(wg, created.workspace_id!, { x_test_env: '' }));
    const retried = assertOk(await c.workspaces.resume(wg, created.workspace_id!));
    assert.equal(retried.status, 'Creating', 'resume of a Failed workspace re-runs what failed');
    const ok = await waitForStatus(c, wg, created.workspace_id!, 'Active');
    assert.equal(ok.err_message, undefined);

    const doomed = assertOk(await c.workspaces.create(wg, { name: 'row-failed-delete', x_test_env: 'fail:create' }));
    await waitForStatus(c, wg, doomed.workspace_id!, 'Failed');
    assertOk(await c.workspaces.delete(wg, doomed.workspace_id!));
    await waitForDeletion(c, wg, doomed.workspace_id!);
  });

  describe('409 for infrastructure changes in the wrong state, metadata accepted in every state', () => {
    it('refuses resize, HA, upgrade, pause and delete while Resuming; accepts renames', async () => {
      const ws = await activeWorkspace(c, wg, {
        name: 'conflict-resuming',
        tg_version: '4.1.0',
        x_test_env: 'slow:resume=120s',
      });
      const id = ws.workspace_id!;
      assertOk(await c.workspaces.pause(wg, id));
      await waitForStatus(c, wg, id, 'Stopped');
      assertOk(await c.workspaces.resume(wg, id));
      const resize = await c.workspaces.update(wg, id, { workspace_type_name: 'TG-2' });
      assert.match(assertError(resize, 409, 'Bad-Request', 'status').Reason, /Resuming.*must be Active/);
      assertError(await c.workspaces.update(wg, id, { enable_ha: true }), 409, 'Bad-Request', 'status');
      assertError(
        await c.workspaces.update(wg, id, { desired_tg_version: '4.2.1', update_strategy: 'immediate' }),
        409,
        'Bad-Request',
        'status',
      );
      assertError(await c.workspaces.pause(wg, id), 409, 'Bad-Request', 'status');
      assertError(await c.workspaces.delete(wg, id), 409, 'Bad-Request', 'status');
      const renamed = assertOk(
        await c.workspaces.update(wg, id, {
          workspace_name: 'renamed-while-resuming',
          auto_stop_minutes: 15,
          maintenance_window_hour_of_day: 4,
        }),
      );
      assert.equal(renamed.status, 'Resuming');
      assert.equal(renamed.name, 'renamed-while-resuming');
      assert.equal(renamed.workspace_type?.typeName, 'TG-00', 'the refused resize changed nothing');
      await advance(120);
      const active = await waitForStatus(c, wg, id, 'Active');
      assert.equal(active.auto_stop_minutes, 15);
    });

    it('refuses resize of a Stopped workspace but accepts every metadata edit', async () => {
      const rw = await activeWorkspace(c, wg, { name: 'conflict-stopped' });
      const id = rw.workspace_id!;
      assertOk(await c.workspaces.pause(wg, id));
      await waitForStatus(c, wg, id, 'Stopped');
      assertError(await c.workspaces.update(wg, id, { workspace_type_name: 'TG-1' }), 409, 'Bad-Request', 'status');
      const edited = assertOk(
        await c.workspaces.update(wg, id, {
          workspace_name: 'stopped-but-editable',
          auto_stop_minutes: 5,
          enable_auto_start: true,
          update_strategy: 'immediate',
          maintenance_window_day_of_week: 6,
          maintenance_window_interval_weeks: 2,
          maintenance_window_time_zone: 'Europe/Paris',
          agent_config: { heartbeat_interval_seconds: 30 },
        }),
      );
      assert.equal(edited.status, 'Stopped');
      assert.equal(edited.name, 'stopped-but-editable');
      assert.equal(edited.maintenance_window_time_zone, 'Europe/Paris');
      assert.deepEqual(edited.agent_config, { heartbeat_interval_seconds: 30 });
    });

    it('refuses refresh of a read-only workspace that is not Active', async () => {
      const rw = await activeWorkspace(c, wg, { name: 'conflict-refresh-rw' });
      const ro = await activeWorkspace(c, wg, {
        name: 'conflict-refresh-ro',
        is_rw: false,
        tg_database_id: rw.database_id!,
      });
      assertOk(await c.workspaces.pause(wg, ro.workspace_id!));
      await waitForStatus(c, wg, ro.workspace_id!, 'Stopped');
      const refresh = await c.workspaces.refresh(wg, ro.workspace_id!);
      assert.match(assertError(refresh, 409, 'Bad-Request', 'status').Reason, /Stopped.*must be Active/);
    });

    it('refuses resume while Pausing', async () => {
      const ws = await activeWorkspace(c, wg, { name: 'conflict-pausing', x_test_env: 'slow:pause=60s' });
      assert.equal(assertOk(await c.workspaces.pause(wg, ws.workspace_id!)).status, 'Pausing');
      const resume = await c.workspaces.resume(wg, ws.workspace_id!);
      assert.match(assertError(resume, 409, 'Bad-Request', 'status').Reason, /Pausing/);
      assertError(await c.workspaces.update(wg, ws.workspace_id!, { pause: false }), 409, 'Bad-Request', 'status');
      await advance(60);
      await waitForStatus(c, wg, ws.workspace_id!, 'Stopped');
    });

    it('refuses pause, resume and delete while Creating', async () => {
      const created = assertOk(
        await c.workspaces.create(wg, { name: 'conflict-creating', x_test_env: 'slow:create=60s' }),
      );
      assertError(await c.workspaces.pause(wg, created.workspace_id!), 409, 'Bad-Request', 'status');
      assertError(await c.workspaces.resume(wg, created.workspace_id!), 409, 'Bad-Request', 'status');
      assertError(await c.workspaces.delete(wg, created.workspace_id!), 409, 'Bad-Request', 'status');
      assert.equal(
        assertOk(await c.workspaces.update(wg, created.workspace_id!, { workspace_name: 'still-creating' })).status,
        'Creating',
      );
      await advance(60);
      await waitForStatus(c, wg, created.workspace_id!, 'Active');
    });
  });

  it('honours If-Match and serves ETag on workspaces', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'etag' });
    const got = await c.workspaces.get(wg, ws.workspace_id!);
    assert.equal(got.headers.etag, `"${ws.version_number}"`);
    assertError(
      await c.workspaces.update(wg, ws.workspace_id!, { workspace_name: 'x' }, { ifMatch: ws.version_number! + 5 }),
      412,
      'Bad-Request',
      'If-Match',
    );
    assertOk(
      await c.workspaces.update(wg, ws.workspace_id!, { workspace_name: 'etag-2' }, { ifMatch: ws.version_number! }),
    );
  });
});
