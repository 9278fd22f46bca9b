import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { API_PREFIX, resultOf, type ApiResponse, type WorkgroupRecord } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const API = API_PREFIX;
const CONSOLE = 'https://console.example.com';
const OTHER = 'https://elsewhere.example.net';

/** A request as a script or a browser sends it: raw headers, no client library. */
async function send(
  server: TestServer,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const res = await request(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers as Record<string, string | undefined>,
    body: text ? JSON.parse(text) : undefined,
  } as ApiResponse<unknown> & { headers: Record<string, string | undefined> };
}

const listOf = (header: string | undefined) => (header ?? '').split(',').map((s) => s.trim().toLowerCase());

describe(`request sequences of clients written for the real service (${storeName})`, () => {
  let server: TestServer;
  let wg: string;
  let ws: string;

  before(async () => {
    server = await startTestServer({
      ACACIA_CLOCK: 'manual',
      ACACIA_SIM_SPEED: '0',
      ACACIA_CORS_ORIGINS: `${CONSOLE}, http://localhost:5173`,
    });
    wg = await newWorkgroup(server.client, 'discovery');
    ws = (await activeWorkspace(server.client, wg, { name: 'graph' })).workspace_id;
  });
  after(() => server.close());

  it('discovery: GET /workgroups with a Bearer key, then Result[].workspaces[].nginx_host', async () => {
    const bearer = { authorization: `Bearer ${server.bootstrapKey}` };
    const res = await send(server, 'GET', `${API}/workgroups`, bearer);
    const workgroups = assertOk(res) as WorkgroupRecord[];
    const found = workgroups.flatMap((g) => g.workspaces).find((w) => w.workspace_id === ws);
    assert.ok(found, 'the workspace is listed under its workgroup');
    assert.equal(found.nginx_host, found.proxy_host);
    assert.equal(found.nginx_host, `${ws}.us-east-1.i.localhost`);
    // The other names the real service documents for a workspace and its database.
    assert.equal(found.size, found.graph_topology_size_bytes);
    assert.equal(found.enable_copilot, false);
    assert.equal(found.folder_statistics.milvus_size, found.folder_statistics.vector_size);
    const db = workgroups.find((g) => g.workgroup_id === wg)!.tg_databases[0]!;
    assert.equal(db.workspaces[0]!.nginx_host, found.nginx_host);
  });

  it('enable_copilot follows the CoPilot add-on of the workspace', async () => {
    const c = server.client;
    const copilot = resultOf(await c.addons.catalog()).find((a) => a.unique_name === 'copilot')!;
    assertOk(await c.addons.install(copilot.addons_id, { enable: 'true' }));
    const on = assertOk(
      await c.workspaces.update(wg, ws, { addons: [{ addons_id: copilot.addons_id, enable: true }] }),
    );
    assert.equal(on.enable_copilot, true);
    const off = assertOk(
      await c.workspaces.update(wg, ws, { addons: [{ addons_id: copilot.addons_id, enable: false }] }),
    );
    assert.equal(off.enable_copilot, false);
  });

  it('browser poller: preflight from an allowed origin, then GET …?_t=<ms> and POST …/resume', async () => {
    const path = `${API}/workgroups/${wg}/workspaces/${ws}`;
    const preflight = await send(server, 'OPTIONS', `${path}?_t=1764000000000`, {
      origin: CONSOLE,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization, if-none-match',
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], CONSOLE);
    assert.equal(preflight.headers['access-control-allow-credentials'], 'true');
    for (const m of ['get', 'post', 'put', 'delete'])
      assert.ok(listOf(preflight.headers['access-control-allow-methods']).includes(m));
    const allowed = listOf(preflight.headers['access-control-allow-headers']);
    for (const h of [
      'x-api-key',
      'authorization',
      'content-type',
      'if-match',
      'if-none-match',
      'idempotency-key',
      'x-request-id',
    ])
      assert.ok(allowed.includes(h), `${h} may be sent`);

    const poll = await send(server, 'GET', `${path}?_t=1764000000001`, {
      origin: CONSOLE,
      authorization: `Bearer ${server.bootstrapKey}`,
    });
    assert.equal(assertOk(poll as ApiResponse<{ workspace_id: string }>).workspace_id, ws);
    assert.equal(poll.headers['access-control-allow-origin'], CONSOLE);
    const exposed = listOf(poll.headers['access-control-expose-headers']);
    for (const h of [
      'etag',
      'x-request-id',
      'x-next-cursor',
      'retry-after',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
    ])
      assert.ok(exposed.includes(h), `${h} is readable by the page`);
    assert.match(poll.headers.vary ?? '', /origin/i);

    // The next poll, holding the ETag, is 304 while nothing changed; a new _t does not matter.
    const again = await send(server, 'GET', `${path}?_t=1764000000002`, {
      origin: CONSOLE,
      authorization: `Bearer ${server.bootstrapKey}`,
      'if-none-match': poll.headers.etag!,
    });
    assert.equal(again.status, 304);
    assert.equal(again.body, undefined);
    assert.equal(again.headers.etag, poll.headers.etag);

    // POST with Content-Type: application/json needs its own preflight.
    const resumePreflight = await send(server, 'OPTIONS', `${path}/resume`, {
      origin: CONSOLE,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-api-key',
    });
    assert.equal(resumePreflight.status, 204);
    assert.equal(resumePreflight.headers['access-control-allow-origin'], CONSOLE);
    const resumed = await send(
      server,
      'POST',
      `${path}/resume`,
      { origin: CONSOLE, 'x-api-key': server.bootstrapKey },
      {},
    );
    assert.equal((assertOk(resumed) as { status: string }).status, 'Active', 'an Active workspace stays Active');
    assert.equal(resumed.headers['access-control-allow-origin'], CONSOLE);

    // Errors reach the page too, so it can show them.
    const refused = await send(server, 'GET', `${path}?_t=3`, {
      origin: CONSOLE,
      authorization: 'Bearer acacia_sk_wrong',
    });
    assertError(refused, 401, 'Unauthorized', 'Authorization');
    assert.equal(refused.headers['access-control-allow-origin'], CONSOLE);
  });

  it('gives no CORS grant to another origin: its preflight is refused and answers carry no Allow-Origin', async () => {
    const path = `${API}/workgroups/${wg}/workspaces/${ws}`;
    const preflight = await send(server, 'OPTIONS', `${path}?_t=1`, {
      origin: OTHER,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    });
    assertError(preflight, 405, 'Bad-Request', 'method');
    for (const h of Object.keys(preflight.headers)) assert.ok(!h.startsWith('access-control-'), `no ${h}`);
    const read = await send(server, 'GET', path, { origin: OTHER, 'x-api-key': server.bootstrapKey });
    assert.equal(read.status, 200, 'the server answers; the browser withholds it from the page');
    assert.equal(read.headers['access-control-allow-origin'], undefined);
  });

  it('Bearer API keys: the same rules and errors as x-api-key, and both headers must agree', async () => {
    const path = `${API}/workgroups/${wg}`;
    const key = server.bootstrapKey;
    assertOk(await send(server, 'GET', path, { authorization: `Bearer ${key}` }));
    assertOk(await send(server, 'GET', path, { authorization: `bearer  ${key}` }));
    assertOk(await send(server, 'GET', path, { authorization: `Bearer ${key}`, 'x-api-key': key }));
    assertError(
      await send(server, 'GET', path, { authorization: 'Bearer acacia_sk_unknown-key-0000000000000000000000000' }),
      401,
      'Unauthorized',
      'Authorization',
    );
    const viewer = assertOk(
      await server.client.apiKeys.create({ key_name: 'bearer-viewer', role: 'viewer' }),
    ).plaintext_key!;
    const disagree = await send(server, 'GET', path, { authorization: `Bearer ${viewer}`, 'x-api-key': key });
    assertError(disagree, 401, 'Unauthorized', 'Authorization');
    assertError(
      await send(server, 'GET', path, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }),
      401,
      'Unauthorized',
      'Authorization',
    );
    // Another scheme beside a valid x-api-key is not an API key: it is left alone.
    assertOk(await send(server, 'GET', path, { authorization: 'Basic YTpi', 'x-api-key': key }));
    // Role rules apply the same way: a viewer's Bearer key may read, not change.
    assertError(
      await send(server, 'PUT', path, { authorization: `Bearer ${viewer}` }, { workgroup_name: 'renamed' }),
      403,
      'Forbidden',
      'x-api-key',
    );
    assertOk(await server.client.apiKeys.revoke('bearer-viewer'));
    const revoked = await send(server, 'GET', path, { authorization: `Bearer ${viewer}` });
    assert.match(assertError(revoked, 401, 'Unauthorized', 'Authorization').Reason, /revoked/);
    assertError(await send(server, 'GET', path, {}), 401, 'Unauthorized', 'x-api-key');
    assert.equal(
      server.logs.some((l) => l.includes(viewer)),
      false,
      'a Bearer key never reaches the log',
    );
  });

  it('API keys as the real service has them: create {description, life_time_in_seconds}; DELETE by name', async () => {
    const bearer = { authorization: `Bearer ${server.bootstrapKey}` };
    const created = await send(server, 'POST', `${API}/apikeys`, bearer, {
      description: 'dashboard',
      life_time_in_seconds: 3600,
    });
    const key = assertOk(created) as {
      key_name: string;
      role: string;
      plaintext_key: string;
      expires_at: string;
      creator: string;
      org_id: string;
    };
    assert.match(key.key_name, /^key-[A-Za-z0-9_-]{8}$/);
    assert.equal(key.role, 'org-admin', "the creating key's role");
    assert.equal(key.creator, 'bootstrap');
    assert.ok(key.org_id);
    assert.ok(Date.parse(key.expires_at) > Date.now() - 1);
    assertOk(await send(server, 'GET', `${API}/workgroups`, { authorization: `Bearer ${key.plaintext_key}` }));

    const deleted = await send(server, 'DELETE', `${API}/apikeys`, bearer, { key_name: key.key_name });
    assert.equal((assertOk(deleted) as { key_name: string }).key_name, key.key_name);
    assertError(
      await send(server, 'GET', `${API}/workgroups`, { authorization: `Bearer ${key.plaintext_key}` }),
      401,
      'Unauthorized',
      'Authorization',
    );
    assertError(
      await send(server, 'DELETE', `${API}/apikeys`, bearer, { key_name: key.key_name }),
      404,
      'Not-Found',
      'key_name',
    );
    assertError(await send(server, 'DELETE', `${API}/apikeys`, bearer, {}), 400, 'Bad-Request', 'key_name');
  });

  it('allow list current answers IsAllowed and CurrentIP', async () => {
    const current = assertOk(await server.client.allowList.current(wg));
    assert.equal(current.IsAllowed, true);
    assert.equal(current.CurrentIP, '127.0.0.1');
    assert.equal(current.ip, current.CurrentIP);
    assert.equal(current.allowed, current.IsAllowed);
  });

  it('restore answers the job id as a string; its status has name, output and created_at', async () => {
    const c = server.client;
    const backup = assertOk(await c.backups.create(wg, ws, { tag: 'doc-shape' }));
    const settled = async () => {
      for (let i = 0; i < 200; i++) {
        const found = resultOf(await c.backups.list(wg, ws)).find((b) => b.id === backup.id);
        if (found?.status !== 'InProgress') return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      return undefined;
    };
    assert.equal((await settled())?.status, 'Succeeded');
    const job = assertOk(await c.backups.restore(wg, ws, { backup_id: backup.id }));
    assert.equal(typeof job, 'string');
    const done = await c.waitFor({ operation: job }, { intervalMs: 20, timeoutMs: 20_000 });
    assert.equal(done.kind, 'workspace.restore');
    const status = assertOk(await c.backups.restoreStatus(ws, job));
    assert.equal(status.status, 'Succeeded');
    assert.equal(status.name, backup.id);
    assert.equal(status.output, `restored from backup ${backup.id}`);
    assert.equal(status.created_at, status.started_at);
  });

  it('POST /workspaces/{ws}/backups/schedule sets the backup schedule by workspace id', async () => {
    const c = server.client;
    const set = assertOk(await c.backups.setScheduleShort(ws, { schedule: '0 3 * * *', max_backup_files: 2 }));
    assert.equal(set.schedule, '0 3 * * *');
    assert.deepEqual(assertOk(await c.backups.getSchedule(ws)), set);
    assertError(
      await c.backups.setScheduleShort('no-such-workspace', { schedule: '0 3 * * *' }),
      404,
      'Not-Found',
      'workspaceID',
    );
    const other = await server.orgClient('schedule-stranger');
    assertError(await other.backups.setScheduleShort(ws, { schedule: '0 4 * * *' }), 404, 'Not-Found', 'workspaceID');
  });

  it('schedule delete answers the deleted id, a string, on both path forms', async () => {
    const c = server.client;
    const body = { workspace_id: ws, repeat: 'daily', time: '05:00', timezone: 'UTC', action: 'pause' } as const;
    const first = assertOk(await c.schedules.create(wg, ws, body));
    const second = assertOk(await c.schedules.create(wg, ws, body));
    assert.equal(assertOk(await c.schedules.deleteShort(ws, first.id)), first.id);
    assert.equal(assertOk(await c.schedules.delete(wg, ws, second.id)), second.id);
    assertError(await c.schedules.deleteShort(ws, first.id), 404, 'Not-Found', 'scheduleID');
  });

  it('publishes every added field and route in /openapi.json', async () => {
    const doc = (await (await request(`${server.url}/openapi.json`)).body.json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    };
    const { schemas } = doc.components;
    for (const f of ['nginx_host', 'size', 'enable_copilot'])
      assert.ok(schemas.WorkspaceRecord!.required!.includes(f), `WorkspaceRecord.${f}`);
    assert.ok(schemas.FolderStatistics!.required!.includes('milvus_size'));
    for (const f of ['IsAllowed', 'CurrentIP']) assert.ok(schemas.CurrentIpRecord!.required!.includes(f));
    for (const f of ['name', 'output', 'created_at']) assert.ok(schemas.RestoreStatusRecord!.required!.includes(f));
    for (const f of ['id', 'created', 'updated', 'enabled']) assert.ok(schemas.DbUserRecord!.required!.includes(f));
    for (const f of ['regions', 'tgVersions', 'workspaceTypes']) assert.ok(schemas.MetaRecord!.required!.includes(f));
    assert.ok(schemas.ApiKeyRecord!.properties.creator);
    assert.deepEqual(schemas.CreateApiKeyBody!.required ?? [], []);
    assert.ok(doc.paths[`${API}/apikeys`]!.delete);
    assert.ok(doc.paths[`${API}/workspaces/{workspaceID}/backups/schedule`]!.post);
  });

  it('still answers a workgroup created through the contract the same way (the names are additions)', async () => {
    const res = await server.client.workgroups.get(wg);
    const record = assertOk(res);
    assert.equal(record.workspaces[0]!.proxy_host, record.workspaces[0]!.nginx_host);
    assert.equal(res.headers.etag, `"${record.version_number}"`);
    assert.ok(await publicProvider(server.client));
  });
});

describe(`CORS for any origin (${storeName})`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ ACACIA_CORS_ORIGINS: '*' });
  });
  after(() => server.close());

  it('grants * without credentials; listed origins alone may send them', async () => {
    const preflight = await send(server, 'OPTIONS', `${API}/workgroups`, {
      origin: OTHER,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, authorization',
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.equal(preflight.headers['access-control-allow-credentials'], undefined);
    const read = await send(server, 'GET', `${API}/workgroups`, { origin: OTHER, 'x-api-key': server.bootstrapKey });
    assertOk(read);
    assert.equal(read.headers['access-control-allow-origin'], '*');
  });
});
