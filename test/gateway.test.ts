import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { AcaciaClient, WorkspaceRecord } from '../src/client/index.js';
import type { CreateWorkspaceBody } from '../src/schemas/workspace.js';
import { assertOk } from './helpers/assert.js';
import { gatewayGet, loopbackBases } from './helpers/gateway.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

const alice = { username: 'alice', password: 'Graph-Secret-42' };

describe(`data-plane gateway (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;
  let v4: string;
  let v6: string;

  before(async () => {
    // Listening on every address, so the same gateway is reached from 127.0.0.1 and ::1.
    server = await startTestServer({ ACACIA_HOST: '::', ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    ({ v4, v6 } = loopbackBases(server.running.gatewayUrl));
  });
  // Each test has an organisation of its own, so tier quotas never couple tests.
  let orgs = 0;
  beforeEach(async () => {
    admin = await server.orgClient(`gateway-${++orgs}`);
  });
  after(() => server.close());

  /** A workgroup with one Active workspace that has the database user alice. */
  async function aliceWorkspace(
    name: string,
    body: CreateWorkspaceBody = {},
  ): Promise<{ wg: string; ws: WorkspaceRecord }> {
    const wg = await newWorkgroup(admin, name);
    const ws = await activeWorkspace(admin, wg, { name: `${name}-ws`, ...body });
    assertOk(await admin.dbUsers.create(wg, ws.workspace_id!, alice));
    return { wg, ws };
  }
  const status = async (wg: string, ws: string) => assertOk(await admin.workspaces.get(wg, ws)).status;

  it('refuses a path whose names are not valid percent-encoding, and goes on serving', async () => {
    const { ws } = await aliceWorkspace('gw-encoding');
    // A workspace id, and a secret's alias (which the gateway decodes itself).
    for (const path of ['/w/%E0%A4%A/restpp/graph/g/vertices', `/w/${ws.workspace_id}/gsql/v1/secrets/%E0%A4%A`]) {
      const refused = await gatewayGet(v4, path, { auth: alice });
      assert.equal(refused.status, 400, path);
      assert.equal(refused.body.error, true);
      assert.equal(refused.body.code, 'invalid');
      assert.equal(refused.body.message, 'path is not a valid URL');
    }
    assert.equal((await gatewayGet(v4, `/w/${ws.workspace_id}/api/ping`, { auth: alice })).status, 200);
  });

  it('routes by Host or /w/<id>/ and serves the handshake endpoints to authenticated db users', async () => {
    const { ws } = await aliceWorkspace('gw-routing');
    const pinged = await gatewayGet(v4, `/w/${ws.workspace_id}/api/ping`, { auth: alice });
    assert.equal(pinged.status, 200);
    assert.deepEqual(pinged.body, { error: false, message: 'pong', results: {} });
    assert.match(String(pinged.headers['content-type']), /application\/json/);

    const version = await gatewayGet(v6, '/api/version', { host: `${ws.proxy_host}:443`, auth: alice });
    assert.equal(version.status, 200);
    assert.deepEqual(version.body.results, { tigergraph_version: ws.tg_version, workspace_id: ws.workspace_id });
    assert.equal(
      (await gatewayGet(v4, '/restpp/echo?x=1', { host: ws.proxy_host!, auth: alice })).body.message,
      'Hello GSQL',
    );

    // Past the handshake, the simulated driver's workspace says it holds no graph: not a 404
    // that reads as no workspace.
    const unknownPath = await gatewayGet(v4, `/w/${ws.workspace_id}/api/nothing`, { auth: alice });
    assert.equal(unknownPath.status, 501);
    assert.equal(unknownPath.body.error, true);
    assert.equal(unknownPath.body.code, 'no-graph-data');
    assert.match(
      String(unknownPath.body.message),
      /GET \/api\/nothing needs the workspace's graph.*ACACIA_DRIVER=local/,
    );
    assert.equal((await gatewayGet(v4, '/w/no-such-workspace/api/ping', { auth: alice })).status, 404);
    const unrouted = await gatewayGet(v4, '/api/ping', { auth: alice });
    assert.equal(unrouted.status, 404);
    assert.match(String(unrouted.body.message), /proxy_host/);
  });

  it('authenticates database users with Basic auth (401 with WWW-Authenticate otherwise)', async () => {
    const { wg, ws } = await aliceWorkspace('gw-auth');
    const path = `/w/${ws.workspace_id}/api/ping`;
    for (const auth of [
      undefined,
      { username: 'alice', password: 'Wrong-Secret-42' },
      { username: 'mallory', password: alice.password },
    ]) {
      const res = await gatewayGet(v4, path, auth ? { auth } : {});
      assert.equal(res.status, 401);
      assert.match(String(res.headers['www-authenticate']), /^Basic realm=/);
      assert.equal(res.body.code, 'unauthenticated');
    }
    assert.equal((await gatewayGet(v4, path, { auth: { username: 'ALICE', password: alice.password } })).status, 200);
    assertOk(await admin.dbUsers.update(wg, ws.workspace_id!, { username: 'alice', password: 'Rotated-Secret-7' }));
    assert.equal((await gatewayGet(v4, path, { auth: alice })).status, 401, 'the old password stops working at once');
    assert.equal(
      (await gatewayGet(v4, path, { auth: { username: 'alice', password: 'Rotated-Secret-7' } })).status,
      200,
    );
    assert.equal(
      server.logs.some((l) => l.includes('Rotated-Secret-7') || /basic [a-z0-9+/=]{8,}/i.test(l)),
      false,
      'credentials never reach the log',
    );
  });

  it('enforces the allow list for IPv4 and IPv6 callers while it is enabled; changes apply at once', async () => {
    const { wg, ws } = await aliceWorkspace('gw-allow');
    const path = `/w/${ws.workspace_id}/api/ping`;
    const codes = async () => [
      (await gatewayGet(v4, path, { auth: alice })).status,
      (await gatewayGet(v6, path, { auth: alice })).status,
    ];
    const v4Entry = assertOk(await admin.allowList.create(wg, { cidr: '127.0.0.0/8' }));
    assert.deepEqual(await codes(), [200, 200], 'a disabled list allows everyone');

    assertOk(await admin.allowList.enable(wg));
    assert.deepEqual(await codes(), [200, 403], 'IPv4-mapped callers match IPv4 entries; ::1 is not listed');
    const refused = await gatewayGet(v6, path, { auth: alice });
    assert.equal(refused.body.code, 'forbidden');
    assert.equal(refused.body.ip, '::1');
    assert.match(String(refused.body.message), /::1 is not in the allow list/);

    assertOk(await admin.allowList.create(wg, { cidr: '::1' }));
    assert.deepEqual(await codes(), [200, 200]);
    assertOk(await admin.allowList.delete(wg, v4Entry.id));
    assert.deepEqual(await codes(), [403, 200]);
    const v4Refused = await gatewayGet(v4, path, { auth: alice });
    assert.equal(v4Refused.body.ip, '127.0.0.1');
    // Proxy headers count only from ACACIA_TRUST_PROXY addresses.
    assert.equal((await gatewayGet(v4, path, { auth: alice, headers: { 'x-forwarded-for': '::1' } })).status, 403);

    assertOk(await admin.allowList.disable(wg));
    assert.deepEqual(await codes(), [200, 200]);
    // The allow list is checked before credentials: a refused address learns nothing about users.
    assertOk(await admin.allowList.enable(wg));
    assert.equal((await gatewayGet(v4, path)).status, 403);
  });

  it('auto-stops after inactivity; authorised traffic postpones it, refused traffic does not', async () => {
    const { wg, ws } = await aliceWorkspace('gw-activity', { auto_stop_minutes: 10 });
    const id = ws.workspace_id!;
    const path = `/w/${id}/api/ping`;
    assertOk(await admin.moveClock({ advance_seconds: 8 * 60 }));
    assert.equal((await gatewayGet(v4, path, { auth: alice })).status, 200);
    assertOk(await admin.moveClock({ advance_seconds: 8 * 60 }));
    assert.equal(await status(wg, id), 'Active', '16 minutes after start, 8 after the last request');

    assert.equal(
      (await gatewayGet(v4, path, { auth: { username: 'alice', password: 'Wrong-Secret-42' } })).status,
      401,
    );
    assertOk(await admin.moveClock({ advance_seconds: 3 * 60 }));
    // Stopped on time: the refused request did not count as activity.
    await waitForStatus(admin, wg, id, 'Stopped');

    const stopped = await gatewayGet(v4, path, { auth: alice });
    assert.equal(stopped.status, 503);
    assert.equal(stopped.body.status, 'Stopped');
    assert.match(String(stopped.body.message), /start it with resume/);
    assert.equal(stopped.headers['retry-after'], undefined);
  });

  it('answers 503 with Retry-After while the workspace is Creating or Updating, then serves it', async () => {
    const wg = await newWorkgroup(admin, 'gw-busy');
    const id = assertOk(
      await admin.workspaces.create(wg, { name: 'gw-busy-ws', x_test_env: 'slow:create=60s,slow:resize=60s' }),
    ).workspace_id!;
    assertOk(await admin.dbUsers.create(wg, id, alice));
    const path = `/w/${id}/api/ping`;
    const creating = await gatewayGet(v4, path, { auth: alice });
    assert.equal(creating.status, 503);
    assert.equal(creating.body.status, 'Creating');
    assert.match(String(creating.body.message), /Creating; retry when it is Active/);
    assert.equal(creating.headers['retry-after'], '30');

    assertOk(await admin.moveClock({ advance_seconds: 60 }));
    await waitForStatus(admin, wg, id, 'Active');
    assert.equal((await gatewayGet(v4, path, { auth: alice })).status, 200);

    assert.equal(assertOk(await admin.workspaces.update(wg, id, { workspace_type_name: 'TG-1' })).status, 'Updating');
    const updating = await gatewayGet(v6, path, { auth: alice });
    assert.equal(updating.status, 503);
    assert.equal(updating.body.status, 'Updating');
    assert.equal(updating.headers['retry-after'], '30');
    assertOk(await admin.moveClock({ advance_seconds: 60 }));
    await waitForStatus(admin, wg, id, 'Active');
    assert.equal((await gatewayGet(v6, path, { auth: alice })).status, 200);
  });

  it('resumes an Idle workspace on an authorised request; answers 503 with Retry-After until Active', async () => {
    const { wg, ws } = await aliceWorkspace('gw-resume', {
      auto_stop_minutes: 10,
      enable_auto_start: true,
      x_test_env: 'slow:resume=30s',
    });
    const id = ws.workspace_id!;
    const path = `/w/${id}/api/ping`;
    assertOk(await admin.moveClock({ advance_seconds: 11 * 60 }));
    await waitForStatus(admin, wg, id, 'Idle');

    assert.equal((await gatewayGet(v4, path)).status, 401);
    assert.equal(await status(wg, id), 'Idle', 'an unauthenticated request starts nothing');

    const first = await gatewayGet(v6, path, { auth: alice });
    assert.equal(first.status, 503);
    assert.equal(first.headers['retry-after'], '30');
    assert.equal(first.body.code, 'unavailable');
    assert.equal(first.body.status, 'Resuming');
    await waitForStatus(admin, wg, id, 'Resuming');

    const again = await gatewayGet(v4, path, { auth: alice });
    assert.equal(again.status, 503);
    assert.match(String(again.body.message), /Resuming/);
    assert.ok(again.headers['retry-after']);

    assertOk(await admin.moveClock({ advance_seconds: 30 }));
    await waitForStatus(admin, wg, id, 'Active');
    assert.equal((await gatewayGet(v4, path, { auth: alice })).status, 200);
  });
});

describe(`data-plane gateway behind a trusted proxy (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_TRUST_PROXY: '127.0.0.1', ACACIA_SIM_SPEED: '0' });
  });
  after(() => server.close());

  it('takes the caller from X-Forwarded-For when the proxy is trusted', async () => {
    const admin = server.client;
    const wg = await newWorkgroup(admin, 'gw-proxy');
    const id = (await activeWorkspace(admin, wg, { name: 'gw-proxy-ws' })).workspace_id!;
    assertOk(await admin.dbUsers.create(wg, id, alice));
    assertOk(await admin.allowList.create(wg, { cidr: '198.51.100.0/24' }));
    assertOk(await admin.allowList.enable(wg));

    const path = `/w/${id}/api/ping`;
    assert.equal((await gatewayGet(server.running.gatewayUrl, path, { auth: alice })).status, 403);
    assert.equal(
      (
        await gatewayGet(server.running.gatewayUrl, path, {
          auth: alice,
          headers: { 'x-forwarded-for': '198.51.100.20' },
        })
      ).status,
      200,
    );
    const refused = await gatewayGet(server.running.gatewayUrl, path, {
      auth: alice,
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.ip, '203.0.113.9');
    // A request passed on to the workspace is admitted by the same address (the simulated driver answers 501).
    const forwarded = `/w/${id}/restpp/graph/g/vertices`;
    const through = (ip: string) =>
      gatewayGet(server.running.gatewayUrl, forwarded, { auth: alice, headers: { 'x-forwarded-for': ip } });
    assert.equal((await through('198.51.100.20')).status, 501);
    const outside = await through('203.0.113.9');
    assert.equal(outside.status, 403);
    assert.equal(outside.body.code, 'forbidden');
    assert.equal(outside.body.ip, '203.0.113.9');
    const current = await admin.request('GET', `/controller/v4/v2/workgroups/${wg}/allow_list/current`, {
      headers: { 'x-forwarded-for': '198.51.100.20' },
    });
    assert.equal(
      assertOk(current as Awaited<ReturnType<typeof admin.allowList.current>>).allowed,
      true,
      'the API applies the same rule',
    );
  });
});
