import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../bench/server-process.js';
import type { WorkspaceRecord } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { gatewayGet } from './helpers/gateway.js';
import { freshStore, startTestServer, storeName, type TestServer } from './helpers/server.js';
import type { StoreLocation } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const env = { ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' };

describe(`gateway default workspace (${storeName})`, () => {
  let store: StoreLocation;
  let server: TestServer;
  let ws: WorkspaceRecord;
  let extraPort: number;

  before(async () => {
    store = await freshStore();
    // The workspace's id is known only once it exists: made by one server, served by the next.
    const first = await startTestServer(env, store);
    const admin = await first.orgClient('default-ws');
    const wg = await newWorkgroup(admin, 'default-ws');
    ws = await activeWorkspace(admin, wg, { name: 'default-ws' });
    assertOk(await admin.dbUsers.create(wg, ws.workspace_id!, alice));
    await first.close();
    extraPort = await freePort();
    server = await startTestServer(
      { ...env, ACACIA_GATEWAY_DEFAULT_WORKSPACE: ws.workspace_id!, ACACIA_GATEWAY_EXTRA_PORTS: String(extraPort) },
      store,
    );
  });
  after(async () => {
    await server?.close();
    await store?.dispose();
  });

  it('sends a request that names no workspace to the default one, with the usual admission', async () => {
    const base = server.running.gatewayUrl;
    const version = await gatewayGet(base, '/api/version', { auth: alice });
    assert.equal(version.status, 200);
    assert.deepEqual(version.body.results, { tigergraph_version: ws.tg_version, workspace_id: ws.workspace_id });
    assert.equal((await gatewayGet(base, '/restpp/echo', { auth: alice })).body.message, 'Hello GSQL');

    const stranger = await gatewayGet(base, '/api/version', { auth: { username: 'alice', password: 'wrong-one-42' } });
    assert.equal(stranger.status, 401);
    assert.equal(stranger.body.error, true);
    assert.equal(stranger.body.code, 'unauthenticated');
  });

  it('still routes by /w/<id>/, which wins over the default', async () => {
    const base = server.running.gatewayUrl;
    const other = await gatewayGet(base, '/w/00000000-0000-4000-8000-00000000dead/api/version', { auth: alice });
    assert.equal(other.status, 404);
    assert.equal(other.body.error, true);
    assert.equal(other.body.code, 'not-found');
    assert.match(String(other.body.message), /workspace/i);
  });

  it('answers on its extra ports as on its own, admission included', async () => {
    const base = `http://127.0.0.1:${extraPort}`;
    const echo = await gatewayGet(base, '/restpp/echo', { auth: alice });
    assert.equal(echo.status, 200);
    assert.equal(echo.body.message, 'Hello GSQL');
    const version = await gatewayGet(base, `/w/${ws.workspace_id}/api/version`, { auth: alice });
    assert.equal(
      version.body.results && (version.body.results as { workspace_id: string }).workspace_id,
      ws.workspace_id,
    );
    const anonymous = await gatewayGet(base, '/restpp/echo');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error, true);
    assert.equal(anonymous.body.code, 'unauthenticated');
  });
});
