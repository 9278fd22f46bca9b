import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  API_PREFIX,
  AcaciaApiError,
  AcaciaClient,
  AcaciaOperationFailedError,
  AcaciaWaitTimeoutError,
  AcaciaWorkspaceFailedError,
  resultOf,
  type Clock,
  type WorkspaceRecord,
} from '../src/client/index.js';
import { apiEndpoints } from '../src/schemas/endpoints/index.js';
import { openEventStream } from '../src/client/event-stream.js';
import { waitForChange } from '../src/client/wait.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { newWorkgroup } from './helpers/workspaces.js';

/** Time that passes only when waitFor sleeps: a timeout is reached without waiting for it. */
function manualClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe(`the typed client (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  const fast = { intervalMs: 20, timeoutMs: 30_000 };

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    c = server.client;
    wg = await newWorkgroup(c, 'client');
  });
  after(() => server.close());

  it('has a method for every endpoint of the table, named as the table says', () => {
    for (const [id, endpoint] of Object.entries(apiEndpoints)) {
      const [group, name] = endpoint.client.includes('.') ? endpoint.client.split('.') : [undefined, endpoint.client];
      const owner = (group ? (c as unknown as Record<string, unknown>)[group] : c) as Record<string, unknown>;
      assert.equal(typeof owner?.[name!], 'function', `${id}: client.${endpoint.client}`);
    }
  });

  it('sends the key as Authorization: Bearer when asked to', async () => {
    const bearer = new AcaciaClient({ baseUrl: server.url, apiKey: server.bootstrapKey, auth: 'bearer' });
    assertOk(await bearer.workgroups.get(wg));
    const wrong = new AcaciaClient({ baseUrl: server.url, apiKey: 'acacia_sk_wrong', auth: 'bearer' });
    assertError(await wrong.workgroups.get(wg), 401, 'Unauthorized', 'Authorization');
  });

  it('waitFor a workspace: until its status is stable, reporting each state read', async () => {
    const created = resultOf(await c.workspaces.create(wg, { name: 'wait-stable' }));
    assert.equal(created.status, 'Creating');
    const seen: string[] = [];
    const done = await c.waitFor(
      { workgroup: wg, workspace: created.workspace_id },
      { ...fast, onProgress: (w) => seen.push(w.status) },
    );
    assert.equal(done.status, 'Active');
    assert.ok(seen.every((s) => s === 'Creating'));

    assertOk(await c.workspaces.pause(wg, created.workspace_id));
    const stopped = await c.waitFor({ workgroup: wg, workspace: created.workspace_id, status: 'Stopped' }, fast);
    assert.equal(stopped.status, 'Stopped');
    // A target already reached answers at once.
    const again = await c.waitFor(
      { workgroup: wg, workspace: created.workspace_id, status: ['Stopped', 'Idle'] },
      fast,
    );
    assert.equal(again.version_number, stopped.version_number);

    assertOk(await c.workspaces.delete(wg, created.workspace_id));
    assert.equal(
      await c.waitFor({ workgroup: wg, workspace: created.workspace_id, status: 'Deleted' }, fast),
      undefined,
    );
  });

  it('waitFor follows the event stream: one read at the start and one per event, not a poll', async () => {
    const clockKey = server.bootstrapKey;
    const slow = resultOf(await c.workspaces.create(wg, { name: 'wait-stream', x_test_env: 'slow:create=1h' }));
    const path = `${API_PREFIX}/workgroups/${wg}/workspaces/${slow.workspace_id}`;
    const reads = () => server.logs.filter((l) => l.includes(`"url":"${path}"`) && l.includes('"GET"')).length;
    const before = reads();
    const states: string[] = [];
    const waiting = c.waitFor(
      { workgroup: wg, workspace: slow.workspace_id, status: 'Active' },
      { intervalMs: 20, timeoutMs: 30_000, onProgress: (w) => states.push(w.status) },
    );
    // Long enough for a 20 ms poll to read a dozen times; the stream reads once.
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(reads() - before, 1, 'no polling while nothing happens');
    assertOk(await new AcaciaClient({ baseUrl: server.url, apiKey: clockKey }).moveClock({ advance_seconds: 3600 }));
    const done = await waiting;
    assert.equal(done.status, 'Active');
    assert.deepEqual(states, ['Creating']);
    assert.ok(reads() - before <= 3, `read again only on events: ${reads() - before} reads`);
    assertOk(await c.workspaces.delete(wg, slow.workspace_id));
  });

  it('waitFor polls a server without the event stream (404)', async () => {
    const ws = resultOf(await c.workspaces.create(wg, { name: 'wait-poll' }));
    const noStream = {
      operations: c.operations,
      workspaces: c.workspaces,
      openEvents: () =>
        openEventStream({
          url: new URL(`${API_PREFIX}/no-events-here`, server.url),
          headers: { 'x-api-key': server.bootstrapKey },
        }),
    };
    const done = await waitForChange(noStream, { workgroup: wg, workspace: ws.workspace_id }, fast);
    assert.equal((done as WorkspaceRecord).status, 'Active');
    assertOk(await c.workspaces.delete(wg, ws.workspace_id));
  });

  it('waitFor an operation: resolves when it succeeded, rejects with its error when it failed', async () => {
    const ok = resultOf(await c.workspaces.create(wg, { name: 'wait-op' }));
    const [createOp] = resultOf(await c.operations.list({ resource_id: ok.workspace_id }));
    const succeeded = await c.waitFor({ operation: createOp!.id }, fast);
    assert.equal(succeeded.state, 'succeeded');
    assert.equal(succeeded.kind, 'workspace.create');

    const bad = resultOf(await c.workspaces.create(wg, { name: 'wait-op-fails', x_test_env: 'fail:create' }));
    const [failing] = resultOf(await c.operations.list({ resource_id: bad.workspace_id }));
    const err = await c.waitFor({ operation: failing!.id }, fast).catch((e: unknown) => e);
    assert.ok(err instanceof AcaciaOperationFailedError, String(err));
    assert.equal(err.operation.state, 'failed');
    assert.match(err.message, /simulated create failure/);

    // The workspace it left Failed rejects a wait for Active with its err_message.
    const wsErr = await c
      .waitFor({ workgroup: wg, workspace: bad.workspace_id, status: 'Active' }, fast)
      .catch((e: unknown) => e);
    assert.ok(wsErr instanceof AcaciaWorkspaceFailedError, String(wsErr));
    assert.match(wsErr.message, /simulated create failure/);
    // Without a target, Failed is a stable status: the wait ends with the record.
    const stable = await c.waitFor({ workgroup: wg, workspace: bad.workspace_id }, fast);
    assert.equal(stable.status, 'Failed');

    const unknown = await c.waitFor({ operation: '0190a1b2-0000-7000-8000-000000000000' }, fast).catch((e) => e);
    assert.ok(unknown instanceof AcaciaApiError);
    assertError(unknown.response, 404, 'Not-Found', 'id');
  });

  it('waitFor times out with a clear error naming the last state, never a half-done record', async () => {
    // slow:create on the manual clock: the workspace stays Creating until the clock moves.
    const slow = resultOf(await c.workspaces.create(wg, { name: 'wait-slow', x_test_env: 'slow:create=1h' }));
    const clock = manualClock();
    const client = new AcaciaClient({ baseUrl: server.url, apiKey: server.bootstrapKey, clock });
    const states: WorkspaceRecord[] = [];
    const err = await client
      .waitFor(
        { workgroup: wg, workspace: slow.workspace_id, status: 'Active' },
        { timeoutMs: 5000, onProgress: (w) => states.push(w) },
      )
      .catch((e: unknown) => e);
    assert.ok(err instanceof AcaciaWaitTimeoutError, String(err));
    assert.equal(
      err.message,
      `timed out after 5000 ms waiting for workspace ${slow.workspace_id} (last seen: status Creating)`,
    );
    assert.equal((err.last as WorkspaceRecord).status, 'Creating');
    assert.equal(
      clock.slept.reduce((a, b) => a + b, 0),
      5000,
      'it slept exactly until the deadline',
    );
    assert.deepEqual(clock.slept.slice(0, 3), [100, 150, 225], 'reads back off');
    assert.ok(states.length >= 2 && states.every((w) => w.status === 'Creating'));

    const [op] = resultOf(await c.operations.list({ resource_id: slow.workspace_id }));
    const opErr = await client.waitFor({ operation: op!.id }, { timeoutMs: 1000, intervalMs: 400 }).catch((e) => e);
    assert.ok(opErr instanceof AcaciaWaitTimeoutError);
    assert.match(opErr.message, /last seen: state (pending|running)/);
  });
});
