import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { operationQueue } from '../src/store/repositories/metrics.js';
import { openStore } from '../src/store/store.js';
import { gatewayGet } from './helpers/gateway.js';
import { sample, scrape as scrapeMetrics } from './helpers/metrics.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

describe(`operability: one log line per request, engine, store and gateway metrics (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  const scrape = () => scrapeMetrics(server.url);

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    c = server.client;
    wg = await newWorkgroup(c, 'metrics');
  });
  after(() => server.close());

  it('logs each request once at info: method, url, status, time and request id, never the key', async () => {
    const before = server.logs.length;
    await c.request('GET', '/controller/v4/v2/workgroups', { headers: { 'x-request-id': 'one-line-please' } });
    const lines = server.logs
      .slice(before)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.reqId === 'one-line-please');
    assert.equal(lines.length, 1, JSON.stringify(lines));
    const [line] = lines;
    assert.equal(line!.msg, 'request completed');
    assert.equal(line!.method, 'GET');
    assert.equal(line!.url, '/controller/v4/v2/workgroups');
    assert.equal(line!.statusCode, 200);
    assert.equal(typeof line!.responseTime, 'number');
    assert.ok(!server.logs.slice(before).some((l) => l.includes(server.bootstrapKey)), 'no key in the log');
  });

  it('counts finished operations by kind and outcome, and workspaces by status', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'counted' });
    const bad = resultOf(await c.workspaces.create(wg, { name: 'broken', x_test_env: 'fail:create' }));
    await c.waitFor({ workgroup: wg, workspace: bad.workspace_id, status: 'Failed' }).catch(() => undefined);
    await c.waitFor({ workgroup: wg, workspace: bad.workspace_id });
    const text = await scrape();
    assert.equal(sample(text, 'acacia_operations_finished_total{kind="workspace.create",outcome="succeeded"}'), 1);
    assert.equal(sample(text, 'acacia_operations_finished_total{kind="workspace.create",outcome="failed"}'), 1);
    assert.equal(sample(text, 'acacia_workspaces{status="Active"}'), 1);
    assert.equal(sample(text, 'acacia_workspaces{status="Failed"}'), 1);
    assert.ok(sample(text, 'acacia_engine_tick_duration_seconds_count') > 0, 'ticks are timed');
    assert.equal(sample(text, 'acacia_operations_queue_depth'), 0);
    assert.equal(sample(text, 'acacia_operations_oldest_due_age_seconds'), 0);

    // Gateway requests by outcome: served, refused for a wrong password, an unknown workspace.
    const alice = { username: 'alice', password: 'Correct-Horse-42' };
    resultOf(await c.dbUsers.create(wg, ws.workspace_id, alice));
    const gw = server.running.gatewayUrl;
    assert.equal((await gatewayGet(gw, `/w/${ws.workspace_id}/restpp/echo`, { auth: alice })).status, 200);
    const wrong = { ...alice, password: 'Wrong-Horse-42!' };
    assert.equal((await gatewayGet(gw, `/w/${ws.workspace_id}/restpp/echo`, { auth: wrong })).status, 401);
    // Requests passed on to the workspace are counted alike (the simulated driver has no graph: 501).
    const forwarded = `/w/${ws.workspace_id}/restpp/graph/g/vertices/Person`;
    assert.equal((await gatewayGet(gw, forwarded, { auth: wrong })).status, 401);
    assert.equal((await gatewayGet(gw, forwarded, { auth: alice })).status, 501);
    const after = await scrape();
    assert.equal(sample(after, 'acacia_gateway_requests_total{outcome="served"}'), 1);
    assert.equal(sample(after, 'acacia_gateway_requests_total{outcome="unauthenticated"}'), 2);
    assert.equal(sample(after, 'acacia_gateway_requests_total{outcome="error"}'), 1);
    assert.equal(sample(after, 'acacia_gateway_request_duration_seconds_count{outcome="served"}'), 1);
    assert.equal(sample(after, 'acacia_gateway_request_duration_seconds_count{outcome="unauthenticated"}'), 2);
  });

  it('counts schedule runs by outcome: an action started, one skipped', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'scheduled' });
    const now = resultOf(await c.moveClock({ advance_seconds: 0 })).now;
    const at = new Date(Date.parse(now) + 3_600_000);
    const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
    // Two pauses at the same minute: the first pauses, the second finds it paused and skips.
    for (let i = 0; i < 2; i++)
      resultOf(
        await c.schedules.create(wg, ws.workspace_id, {
          workspace_id: ws.workspace_id,
          repeat: 'daily',
          time,
          timezone: 'UTC',
          action: 'pause',
        }),
      );
    resultOf(await c.moveClock({ advance_seconds: 2 * 3600 }));
    const text = await scrape();
    assert.equal(sample(text, 'acacia_schedule_runs_total{schedule="workspace",outcome="started"}'), 1);
    assert.equal(sample(text, 'acacia_schedule_runs_total{schedule="workspace",outcome="skipped"}'), 1);
  });

  it('measures the queue from the store: depth, and how long the oldest due operation has waited', async () => {
    // slow:create leaves the operation pending for an hour of the (manual) clock.
    resultOf(await c.workspaces.create(wg, { name: 'queued', x_test_env: 'slow:create=1h' }));
    const text = await scrape();
    assert.equal(sample(text, 'acacia_operations_queue_depth'), 1);
    assert.equal(sample(text, 'acacia_operations_oldest_due_age_seconds'), 0, 'not due yet: nothing waits');
    // As the engine of a process that is down would find it two hours on: due for an hour.
    const store = await openStore({ databaseUrl: server.store.databaseUrl, dataDir: server.store.dataDir });
    try {
      const now = Date.parse(resultOf(await c.moveClock({ advance_seconds: 0 })).now);
      const queue = await operationQueue(store.db, now + 2 * 3_600_000);
      assert.equal(queue.depth, 1);
      assert.ok(Math.abs(queue.oldestDueAgeMs - 3_600_000) < 5_000, String(queue.oldestDueAgeMs));
    } finally {
      await store.close();
    }
  });
});
