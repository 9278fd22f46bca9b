import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { resultOf, type AcaciaClient, type WorkspaceRecord } from '../src/client/index.js';
import { UPLOAD_LIMIT } from '../src/dataplane/data-folder.js';
import { DATA_PLANE_SECRET_HEADER, dataPlaneSecret, isPidAlive, startDataPlane } from '../src/dataplane/index.js';
import { findRuntime, type WorkspaceRuntime } from '../src/store/repositories/workspace-runtimes.js';
import { localBackend } from '../src/gateway/local-backend.js';
import { findWorkspaceById } from '../src/store/repositories/workspaces.js';
import type { Store } from '../src/store/store.js';
import { assertOk } from './helpers/assert.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import { freshStore, newKeyText, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';
import { openStoreOf } from './helpers/store-snapshot.js';
import { hostTarget, TigerGraphReplay, type Auth, socialSchema } from './helpers/tigergraph-client.js';
import { newWorkgroup } from './helpers/workspaces.js';

/**
 * The local driver, as a user meets it: workspaces whose graph is real, served by a
 * data-plane process each, reached through the gateway. Process start-up is real time (the
 * waits poll for it); the lifecycle's own waits move the manual clock.
 */

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basic: Auth = { auth: alice };
const basicAuthorization = `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}`;
const localEnv = { ACACIA_DRIVER: 'local', ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_GSQL_OUTPUT_MB: '1' };

const people = (ids: Record<string, number>) =>
  Object.fromEntries(Object.entries(ids).map(([id, age]) => [id, { age: { value: age } }]));

/** Polls the workspace until `until` accepts it: process start-up takes real time. */
async function waitFor(
  c: AcaciaClient,
  wg: string,
  ws: string,
  until: (w: WorkspaceRecord) => boolean,
  what: string,
): Promise<WorkspaceRecord> {
  const last = await c.waitForWorkspace(wg, ws, until, { attempts: 600, intervalMs: 50 });
  assert.ok(last && until(last), `workspace ${ws} never became ${what}: ${JSON.stringify(last)}`);
  return last;
}
const active = (c: AcaciaClient, wg: string, ws: string) => waitFor(c, wg, ws, (w) => w.status === 'Active', 'Active');

/** The ids of the graph's Person vertices, as the workspace serves them. */
async function personIds(tg: TigerGraphReplay): Promise<string[]> {
  const res = await tg.request('GET', '/restpp/graph/social/vertices/Person', basic);
  assert.equal(res.status, 200, res.text);
  return (res.json.results as { v_id: string }[]).map((v) => v.v_id).sort();
}

async function upsert(tg: TigerGraphReplay, body: Record<string, unknown>) {
  const res = await tg.request('POST', '/restpp/graph/social', basic, JSON.stringify(body));
  return res;
}

async function runtimeOf(store: Store, ws: string): Promise<WorkspaceRuntime> {
  const row = await findRuntime(store.db, ws);
  assert.ok(row, `a runtime record for ${ws}`);
  return row;
}

describe(`local driver: workspaces with real graph data (${storeName})`, () => {
  let server: TestServer;
  let store: Store;
  let c: AcaciaClient;
  let wg: string;
  let rw: WorkspaceRecord;
  let tg: TigerGraphReplay;
  const advance = async (seconds: number) => assertOk(await c.moveClock({ advance_seconds: seconds }));

  before(async () => {
    server = await startTestServer(localEnv);
    store = await openStoreOf(server.store);
    c = server.client;
    wg = await newWorkgroup(c, 'local');
    const created = resultOf(await c.workspaces.create(wg, { name: 'local-rw' }));
    rw = await active(c, wg, created.workspace_id!);
    assertOk(await c.dbUsers.create(wg, rw.workspace_id!, alice));
    tg = new TigerGraphReplay(hostTarget(server.running.gatewayUrl, rw.proxy_host!));
  });
  after(async () => {
    await store?.close();
    await server?.close();
  });

  it('defines a schema with GSQL, upserts vertices and edges, reads them back, and records the figures', async () => {
    const defined = await tg.gsql4(basic, socialSchema);
    assert.equal(defined.status, 200, defined.text);
    assert.match(defined.text, /The graph social is created/);

    const upserted = await upsert(tg, {
      vertices: { Person: people({ ann: 31, bob: 42, cat: 27 }) },
      edges: { Person: { ann: { Knows: { Person: { bob: { since: { value: 2019 } }, cat: {} } } } } },
    });
    assert.equal(upserted.status, 200, upserted.text);
    assert.deepEqual(upserted.json.results, [{ accepted_vertices: 3, accepted_edges: 2 }]);

    const ann = await tg.request('GET', '/restpp/graph/social/vertices/Person/ann', basic);
    assert.deepEqual((ann.json.results as unknown[])[0], {
      v_id: 'ann',
      v_type: 'Person',
      attributes: { id: 'ann', age: 31 },
    });
    const knows = await tg.request('GET', '/restpp/graph/social/edges/Person/ann/Knows', basic);
    assert.deepEqual((knows.json.results as { to_id: string }[]).map((e) => e.to_id).sort(), ['bob', 'cat']);
    // An unknown attribute is the data plane's refusal, passed through as it is.
    const refused = await upsert(tg, { vertices: { Person: { dan: { height: { value: 1 } } } } });
    assert.equal(refused.json.error, true, refused.text);

    // The reconciler's next look records what the data holds.
    await advance(31);
    const seen = await waitFor(c, wg, rw.workspace_id!, (w) => w.vertex_count === 3, 'counted');
    assert.equal(seen.edge_count, 2);
    assert.ok(seen.graph_topology_size_bytes! > 0, 'the graph has a size');
    const folder = seen.folder_statistics!.workspaces.find((w) => w.workspace_id === rw.workspace_id);
    assert.equal(folder?.size, seen.graph_topology_size_bytes);
  });

  it('admits a GSQL secret sent as `Authorization: GSQL-Secret <secret>`, the documented REST scheme', async () => {
    const created = await tg.createSecretV4(basic, 'rest_scheme');
    assert.equal(created.status, 200, created.text);
    const secret = (created.json.results as { value: string }).value;
    const scheme = (value: string): Auth => ({ headers: { authorization: `GSQL-Secret ${value}` } });
    const read = await tg.request('GET', '/restpp/graph/social/vertices/Person?limit=5&select=age', scheme(secret));
    assert.equal(read.status, 200, read.text);
    assert.deepEqual((read.json.results as { v_id: string }[]).map((v) => v.v_id).sort(), ['ann', 'bob', 'cat']);
    // The same rules as the secret in Basic auth: an unknown one is refused, and it makes no secret.
    const unknown = await tg.request('GET', '/restpp/graph/social/vertices/Person', scheme('x'.repeat(32)));
    assert.equal(unknown.status, 401, unknown.text);
    assert.equal(unknown.json.code, 'unauthenticated');
    const minted = await tg.createSecretV4(scheme(secret), 'from_a_secret');
    assert.equal(minted.status, 403, minted.text);
  });

  it('a GSQL request prints at most ACACIA_GSQL_OUTPUT_MB, the statements after not run', async () => {
    // 300 vertex types make LS print some 30 KB: 300 of them would print 9 MB.
    const types = Array.from({ length: 300 }, (_, i) => `T${i}`);
    const statements = [
      ...types.map((t) => `CREATE VERTEX ${t} (PRIMARY_ID id STRING)`),
      ...types.map(() => 'LS'),
      'CREATE VERTEX Late (PRIMARY_ID id STRING)',
    ];
    const res = await tg.gsql4(basic, statements.join('\n'));
    assert.equal(res.status, 200);
    assert.ok(res.text.length < 1024 * 1024 + 1000, `${res.text.length} characters`);
    assert.match(
      res.text,
      /\nSemantic Check Fails: the answer is larger than the limit of 1048576 bytes: the statement at line \d+ ran but/,
    );
    assert.match(res.text, /\n__GSQL__RETURN__CODE__,212$/);
    const dropped = await tg.gsql4(basic, `DROP VERTEX ${types.join(', ')}\nDROP VERTEX Late`);
    assert.match(
      dropped.text,
      /Successfully dropped vertex types: \[T0, .*T299\]\.\n.*vertex type Late does not exist/,
    );
  });

  it('pause stops the process (the gateway says 503); resume starts it on the same data', async () => {
    const id = rw.workspace_id!;
    const before = await runtimeOf(store, id);
    assertOk(await c.workspaces.pause(wg, id));
    await waitFor(c, wg, id, (w) => w.status === 'Stopped', 'Stopped');
    assert.equal(await findRuntime(store.db, id), undefined, 'no runtime while Stopped');
    assert.equal(isPidAlive(before.pid), false, 'the process was stopped');
    const paused = await tg.request('GET', '/restpp/graph/social/vertices/Person', basic);
    assert.equal(paused.status, 503, paused.text);
    assert.equal(paused.json.error, true);

    assertOk(await c.workspaces.resume(wg, id));
    await active(c, wg, id);
    assert.notEqual((await runtimeOf(store, id)).pid, before.pid, 'a new process');
    assert.deepEqual(await personIds(tg), ['ann', 'bob', 'cat']);
  });

  it('a backup is a real copy: delete data, restore, and it is back', async () => {
    const id = rw.workspace_id!;
    const backup = assertOk(await c.backups.create(wg, id, { tag: 'three-people' }));
    let done;
    for (let i = 0; i < 400 && !done; i++) {
      done = resultOf(await c.backups.listByWorkspace(id)).find((b) => b.id === backup.id && b.status !== 'InProgress');
      if (!done) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(done?.status, 'Succeeded', JSON.stringify(done));
    assert.ok(Number(done.size_bytes) > 0, 'the backup has a real size');

    const deleted = await tg.request('DELETE', '/restpp/graph/social/vertices/Person/cat', basic);
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(await personIds(tg), ['ann', 'bob']);

    assertOk(await c.backups.restore(wg, id, { backup_id: backup.id }));
    await waitFor(c, wg, id, (w) => w.status === 'Active' && w.condition_type === 'Normal', 'restored');
    assert.deepEqual(await personIds(tg), ['ann', 'bob', 'cat']);
  });

  it('a read-only workspace serves its snapshot until refresh, and refuses writes', async () => {
    const created = resultOf(
      await c.workspaces.create(wg, { name: 'local-ro', is_rw: false, tg_database_id: rw.database_id! }),
    );
    const ro = await active(c, wg, created.workspace_id!);
    assert.ok(ro.snapshot_time, 'a snapshot time');
    assertOk(await c.dbUsers.create(wg, ro.workspace_id!, alice));
    const rotg = new TigerGraphReplay(hostTarget(server.running.gatewayUrl, ro.proxy_host!));
    assert.deepEqual(await personIds(rotg), ['ann', 'bob', 'cat']);

    const write = await upsert(rotg, { vertices: { Person: people({ eve: 50 }) } });
    assert.equal(write.status, 403, write.text);
    assert.equal(write.json.code, 'READ-ONLY');

    assert.equal((await upsert(tg, { vertices: { Person: people({ dan: 19 }) } })).status, 200);
    assert.deepEqual(await personIds(rotg), ['ann', 'bob', 'cat'], 'the snapshot, not the new data');

    await advance(60);
    assertOk(await c.workspaces.refresh(wg, ro.workspace_id!));
    const refreshed = await waitFor(
      c,
      wg,
      ro.workspace_id!,
      (w) => w.status === 'Active' && w.refresh_status === 'Succeeded',
      'refreshed',
    );
    assert.ok(Date.parse(refreshed.snapshot_time!) > Date.parse(ro.snapshot_time!), 'a later snapshot');
    assert.equal(refreshed.vertex_count, 4, 'the snapshot is counted');
    assert.deepEqual(await personIds(rotg), ['ann', 'bob', 'cat', 'dan']);
  });

  it("graph, write-ahead log, snapshot and backup files are the owner's only (0600, folders 0700)", async () => {
    const graphs = path.join(server.store.dataDir, 'graphs');
    const modes: Record<string, string> = {};
    const walk = (at: string) => {
      for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
        const full = path.join(at, entry.name);
        modes[path.relative(graphs, full)] = (fs.statSync(full).mode & 0o777).toString(8);
        if (entry.isDirectory()) walk(full);
      }
    };
    modes['.'] = (fs.statSync(graphs).mode & 0o777).toString(8);
    walk(graphs);
    const db = rw.database_id!;
    for (const file of ['graph.db', 'graph.db-wal', 'graph.db-shm'])
      assert.ok(modes[path.join(db, file)], `${file} is there: ${JSON.stringify(modes)}`);
    for (const folder of ['snapshots', 'backups']) {
      assert.equal(modes[path.join(db, folder)], '700', folder);
      assert.ok(
        Object.keys(modes).some((f) => f.startsWith(path.join(db, folder, '/')) && f.endsWith('.db')),
        `a file in ${folder}`,
      );
    }
    const open = Object.entries(modes).filter(([, mode]) => mode !== '600' && mode !== '700');
    assert.deepEqual(open, [], 'nothing under graphs/ is readable by others');
  });

  it('the process also listens on a Unix socket in the data directory, sockets/ (0700), by its port', async () => {
    const ws = (await findWorkspaceById(store.db, rw.workspace_id!))!;
    const folder = path.join(server.store.dataDir, 'sockets');
    assert.equal((fs.statSync(folder).mode & 0o777).toString(8), '700');
    const port = Number(ws.endpoint!.split(':').pop());
    assert.ok(fs.statSync(path.join(folder, `${port}.sock`)).isSocket());
  });

  it('resize and HA restart the process with the new resources, on the same data', async () => {
    const id = rw.workspace_id!;
    const before = await runtimeOf(store, id);
    assert.equal(JSON.parse(before.shape).maxHeapMb, 128, "TG-00's 16 GB as a laptop's heap");
    assertOk(await c.workspaces.update(wg, id, { workspace_type_name: 'TG-1' }));
    const resized = await waitFor(c, wg, id, (w) => w.status === 'Active' && w.condition_type === 'Normal', 'resized');
    assert.equal(resized.workspace_type.typeName, 'TG-1');
    const after = await runtimeOf(store, id);
    assert.equal(JSON.parse(after.shape).maxHeapMb, 512);
    assert.notEqual(after.pid, before.pid, 'a new process');
    assert.equal(isPidAlive(before.pid), false, 'the old one stopped');

    assertOk(await c.workspaces.update(wg, id, { enable_ha: true }));
    const ha = await waitFor(c, wg, id, (w) => w.status === 'Active' && w.enable_ha === true, 'HA');
    assert.equal(ha.replicas, 3);
    assert.notEqual((await runtimeOf(store, id)).pid, after.pid, 'restarted for HA');
    assert.deepEqual(await personIds(tg), ['ann', 'bob', 'cat', 'dan']);
  });

  it('a killed data-plane process is noticed and restarted, the workspace Resuming meanwhile', async () => {
    const id = rw.workspace_id!;
    // Recovery is held a minute of the manual clock, so the state in between can be seen.
    assertOk(await c.workspaces.update(wg, id, { x_test_env: 'slow:recover=60s' }));
    const before = await runtimeOf(store, id);
    process.kill(before.pid, 'SIGKILL');

    const recovering = await waitFor(c, wg, id, (w) => w.status === 'Resuming', 'Resuming');
    assert.equal(recovering.condition_type, 'Recover');
    const meanwhile = await tg.request('GET', '/restpp/graph/social/vertices/Person', basic);
    assert.equal(meanwhile.status, 503, meanwhile.text);

    await advance(61);
    await active(c, wg, id);
    const after = await runtimeOf(store, id);
    assert.notEqual(after.pid, before.pid);
    assert.ok(isPidAlive(after.pid));
    assert.deepEqual(await personIds(tg), ['ann', 'bob', 'cat', 'dan']);
  });

  it("a workspace whose process does not answer is a 502 in TigerGraph's shape; one with none a 503", async () => {
    const backend = localBackend({ dataDir: server.store.dataDir, timeoutMs: 2000 });
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    const ws = (await findWorkspaceById(store.db, rw.workspace_id!))!;
    const req = {
      method: 'GET',
      path: '/restpp/graph/social/vertices/Person',
      query: '',
      headers: {},
      body: undefined,
      identity: { orgId: ws.org_id, workspaceId: ws.id, userId: 'u', username: 'alice', via: 'password' as const },
    };
    try {
      const down = await backend.serve(req, { ...ws, endpoint: `127.0.0.1:${closed}` });
      assert.equal(down.status, 502);
      assert.deepEqual(Object.keys(down.body as object), ['error', 'code', 'message']);
      assert.equal((down.body as { code: string }).code, 'bad-gateway');
      const none = await backend.serve(req, { ...ws, endpoint: null });
      assert.equal(none.status, 503);
    } finally {
      await backend.close?.();
    }
  });

  it('a body over the limit is a 413 naming the limit, announced or not, passed on or read', async () => {
    const base = `${server.running.gatewayUrl}/w/${rw.workspace_id}`;
    const headers = { authorization: basicAuthorization };
    const body = Buffer.alloc(8 << 20, ' ');
    for (const where of ['/restpp/graph/social', '/gsql/v1/statements'])
      for (const chunked of [false, true]) {
        const res = await request(`${base}${where}`, {
          method: 'POST',
          headers,
          body: chunked ? Readable.from([body.subarray(0, 1000), body.subarray(1000)]) : body,
        });
        const json = (await res.body.json()) as Record<string, unknown>;
        assert.equal(res.statusCode, 413, `${where} ${JSON.stringify(json)}`);
        assert.equal(json.code, 'payload-too-large');
        assert.equal(json.message, 'body is larger than the limit of 1048576 bytes');
      }
    assert.deepEqual(await personIds(tg), ['ann', 'bob', 'cat', 'dan'], 'nothing written, the workspace serves on');
  });

  it("an upload to a loading job may be larger than other bodies, up to pyTigerGraph's size limit", async () => {
    const job =
      'USE GRAPH social\nCREATE LOADING JOB knows_csv FOR GRAPH social {\n' +
      '  DEFINE FILENAME f;\n  LOAD f TO EDGE Knows VALUES ($0, $1, $2);\n}';
    assert.match((await tg.gsql4(basic, job)).text, /Successfully created loading jobs: \[knows_csv\]/);
    // The same edge on every line: 2.6 MB of lines, more than the 1 MiB other requests may send.
    const lines = 200_000;
    const body = Array.from({ length: lines }, (_, i) => `ann,dan,${i}`).join('\n');
    assert.ok(body.length > 2 << 20);
    const res = await tg.request('POST', '/restpp/ddl/social?tag=knows_csv&filename=f', basic, body);
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const [result] = res.json.results as { statistics: { validLine: number } }[];
    assert.equal(result!.statistics.validLine, lines);
    const knows = await tg.request('GET', '/restpp/graph/social/edges/Person/ann/Knows/Person/dan', basic);
    assert.deepEqual((knows.json.results as { attributes: unknown }[])[0]!.attributes, { since: lines - 1 });
    assert.deepEqual(await personIds(tg), ['ann', 'bob', 'cat', 'dan']);
    // Announced past the upload limit: refused by the gateway before the body is read.
    const chunk = Buffer.alloc(1 << 20, 'x');
    const tooMuch = function* () {
      for (let sent = 0; sent <= UPLOAD_LIMIT; sent += chunk.length) yield chunk.subarray(0, UPLOAD_LIMIT + 1 - sent);
    };
    const over = await request(
      `${server.running.gatewayUrl}/w/${rw.workspace_id}/restpp/ddl/social?tag=knows_csv&filename=f`,
      {
        method: 'POST',
        headers: { authorization: basicAuthorization, 'content-length': String(UPLOAD_LIMIT + 1) },
        body: Readable.from(tooMuch()),
      },
    );
    const refusal = (await over.body.json()) as Record<string, unknown>;
    assert.equal(over.statusCode, 413, JSON.stringify(refusal));
    assert.equal(refusal.code, 'payload-too-large');
    assert.equal(refusal.message, `body is larger than the limit of ${UPLOAD_LIMIT} bytes`);
  });

  it("a process with a lower limit than the gateway's answers 413 too, not a failed connection", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-small-limit-'));
    const backend = localBackend({ dataDir: dir, timeoutMs: 5000 });
    const dp = await startDataPlane({
      storeFile: path.join(dir, 'graph.db'),
      secret: dataPlaneSecret(dir, rw.workspace_id!),
      bodyLimitBytes: 1024,
    });
    const ws = (await findWorkspaceById(store.db, rw.workspace_id!))!;
    try {
      for (const body of [Buffer.alloc(8 << 20, ' '), Readable.from([Buffer.alloc(8 << 20, ' ')])]) {
        const answer = await backend.serve(
          {
            method: 'POST',
            path: '/gsql/v1/statements',
            query: '',
            headers: {},
            body,
            identity: { orgId: ws.org_id, workspaceId: ws.id, userId: 'u', username: 'alice', via: 'password' },
          },
          { ...ws, endpoint: `${dp.host}:${dp.port}` },
        );
        const text =
          answer.body instanceof Readable
            ? Buffer.concat(await answer.body.toArray()).toString()
            : Buffer.isBuffer(answer.body) || typeof answer.body === 'string'
              ? answer.body.toString()
              : JSON.stringify(answer.body);
        assert.equal(answer.status, 413, text);
        assert.match(JSON.parse(text).message, /larger than the limit of 1024 bytes/);
      }
    } finally {
      await backend.close?.();
      await dp.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes an answer of hundreds of KiB through whole, as the process sent it', async () => {
    // Over 64 KiB the gateway streams the process's answer instead of gathering it (upstream-answer.ts).
    const defined = await tg.gsql4(
      basic,
      'CREATE VERTEX Note (PRIMARY_ID id STRING, body STRING) WITH PRIMARY_ID_AS_ATTRIBUTE="true"\n' +
        'CREATE GRAPH notes (Note)',
    );
    assert.match(defined.text, /The graph notes is created/);
    const notes = Object.fromEntries(
      Array.from({ length: 2_000 }, (_, i) => [`note-${i}`, { body: { value: `${i} ${'lorem ipsum '.repeat(12)}` } }]),
    );
    const stored = await tg.request(
      'POST',
      '/restpp/graph/notes',
      basic,
      JSON.stringify({ vertices: { Note: notes } }),
    );
    assert.deepEqual(stored.json.results, [{ accepted_vertices: 2_000, accepted_edges: 0 }]);

    const listed = await tg.request('GET', '/restpp/graph/notes/vertices/Note', basic);
    assert.equal(listed.status, 200);
    assert.ok(Buffer.byteLength(listed.text) > 256 * 1024, `${Buffer.byteLength(listed.text)} bytes`);
    const row = await runtimeOf(store, rw.workspace_id!);
    const sent = await request(`http://${row.host}:${row.port}/restpp/graph/notes/vertices/Note`, {
      headers: { [DATA_PLANE_SECRET_HEADER]: dataPlaneSecret(server.store.dataDir, rw.workspace_id!) },
    });
    assert.equal(listed.text, await sent.body.text());
    assert.equal((listed.json.results as unknown[]).length, 2_000);
  });

  it('deleting the workspaces stops their processes; deleting the database removes its files', async () => {
    const rows = await store.db.selectFrom('workspace_runtimes').selectAll().execute();
    assert.equal(rows.length, 2);
    // The read-only workspace first: the read-write one cannot go while another reads from its database.
    const ordered = [...rows].sort(
      (a, b) => Number(a.workspace_id === rw.workspace_id) - Number(b.workspace_id === rw.workspace_id),
    );
    for (const row of ordered) {
      assertOk(await c.workspaces.delete(wg, row.workspace_id));
      await c.waitForWorkspace(wg, row.workspace_id, () => false, { attempts: 400 });
    }
    assert.deepEqual(await store.db.selectFrom('workspace_runtimes').selectAll().execute(), []);
    for (const row of rows) assert.equal(isPidAlive(row.pid), false, `process ${row.pid} stopped`);

    const files = path.join(server.store.dataDir, 'graphs', rw.database_id!);
    assert.ok(fs.existsSync(path.join(files, 'graph.db')), 'the graph outlives its workspaces');
    assertOk(await c.databases.delete(wg, rw.database_id!));
    for (let i = 0; i < 400 && fs.existsSync(files); i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(fs.existsSync(files), false, 'the database folder is removed');
  });
});

/** Calls a data-plane process directly, as the gateway does. */
async function direct(dataDir: string, row: WorkspaceRuntime, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await request(`http://${row.host}:${row.port}${path}`, {
    method,
    headers: { [DATA_PLANE_SECRET_HEADER]: dataPlaneSecret(dataDir, row.workspace_id) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

const pg = suiteUnless(storeName === 'sqlite' && 'several Acacia processes share a store on PostgreSQL only');

describe(`local driver: a workspace whose owner died is taken over (${storeName})`, () => {
  const servers: ServeProcess[] = [];
  let location: Awaited<ReturnType<typeof freshStore>>;
  let store: Store;

  pg.before(async () => {
    location = await freshStore();
    const key = newKeyText();
    for (let i = 0; i < 2; i++)
      servers.push(await serveProcess(location, key, { ACACIA_DRIVER: 'local', ACACIA_SIM_SPEED: '0' }));
    store = await openStoreOf(location);
  });
  pg.after(async () => {
    await Promise.all(servers.map((s) => stopProcess(s.child, 'SIGKILL')));
    await store?.close();
    await location?.dispose();
  });

  pg.it('the other process restarts the workspace once the owner stopped renewing its lease', async () => {
    const c = servers[0]!.client;
    const wg = await newWorkgroup(c, 'takeover');
    const created = resultOf(await c.workspaces.create(wg, { name: 'taken-over' }));
    const id = created.workspace_id!;
    await active(c, wg, id);
    const first = await runtimeOf(store, id);
    const gsql = await request(`http://${first.host}:${first.port}/gsql/v1/statements`, {
      method: 'POST',
      headers: { [DATA_PLANE_SECRET_HEADER]: dataPlaneSecret(location.dataDir, id) },
      body: socialSchema,
    });
    assert.equal(gsql.statusCode, 200, await gsql.body.text());
    const wrote = await direct(location.dataDir, first, 'POST', '/restpp/graph/social', {
      vertices: { Person: people({ ann: 31 }) },
    });
    assert.equal(wrote.status, 200, JSON.stringify(wrote.json));

    const owner = servers.find((s) => first.owner.includes(`:${s.child.pid}:`));
    const survivor = servers.find((s) => s !== owner)!;
    assert.ok(owner, `the owner ${first.owner} is one of the two`);
    await stopProcess(owner.child, 'SIGKILL');

    // Past the owner's lease, the survivor's next look finds the workspace lost and recovers it.
    assertOk(await survivor.client.moveClock({ advance_seconds: 120 }));
    const recovered = await waitFor(
      survivor.client,
      wg,
      id,
      (w) => w.status === 'Active' && w.condition_type === 'Normal',
      'recovered',
    ).catch((err: unknown) => {
      // What the survivor logged says why it did not take over.
      throw new Error(`${(err as Error).message}\n${survivor.output.stdout.slice(-4000)}`);
    });
    const second = await runtimeOf(store, id);
    assert.ok(second.owner.includes(`:${survivor.child.pid}:`), `taken over by the survivor: ${second.owner}`);
    assert.notEqual(second.pid, first.pid);
    assert.equal(recovered.vertex_count, 1);
    const read = await direct(location.dataDir, second, 'GET', '/restpp/graph/social/vertices/Person/ann');
    assert.equal(read.status, 200, JSON.stringify(read.json));
  });
});

const withProc = suiteUnless(!fs.existsSync('/proc/self/environ') && 'reads /proc/<pid>/environ');

describe(`local driver: what a data-plane process is given (${storeName})`, () => {
  let location: Awaited<ReturnType<typeof freshStore>>;
  let server: ServeProcess;
  let store: Store;
  const key = newKeyText();
  const webhookKey = `webhook-key-${newKeyText()}`;

  withProc.before(async () => {
    location = await freshStore();
    server = await serveProcess(location, key, {
      ACACIA_DRIVER: 'local',
      ACACIA_SIM_SPEED: '0',
      ACACIA_WEBHOOK_KEY: webhookKey,
    });
    store = await openStoreOf(location);
  });
  withProc.after(async () => {
    if (server) await stopProcess(server.child, 'SIGKILL');
    await store?.close();
    await location?.dispose();
  });

  withProc.it("has none of Acacia's settings or secrets in its environment, nor its own secret", async () => {
    const c = server.client;
    const wg = await newWorkgroup(c, 'environ');
    const id = resultOf(await c.workspaces.create(wg, { name: 'environ' })).workspace_id!;
    await active(c, wg, id);
    const { pid } = await runtimeOf(store, id);
    const parent = fs.readFileSync(`/proc/${server.child.pid}/environ`, 'utf8');
    assert.ok(parent.includes(key) && parent.includes(webhookKey), "the Acacia process's own environment has them");

    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
    const names = environ
      .split('\0')
      .filter(Boolean)
      .map((entry) => entry.slice(0, entry.indexOf('=')));
    assert.deepEqual(
      names.filter((n) => n.startsWith('ACACIA_') || n === 'DATABASE_URL'),
      [],
      `the environment of the data-plane process: ${names.join(', ')}`,
    );
    const secret = dataPlaneSecret(location.dataDir, id);
    for (const [what, value] of Object.entries({ 'its secret': secret, 'the bootstrap key': key, webhookKey }))
      assert.ok(!environ.includes(value), `${what} is not in its environment`);
    assert.ok(!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(secret), 'nor in its arguments');
    if (location.databaseUrl) assert.ok(!environ.includes(location.databaseUrl), "nor the store's URL");

    // It has the secret all the same: it answers the gateway's requests, and only those.
    const row = await runtimeOf(store, id);
    assert.equal((await direct(location.dataDir, row, 'GET', '/api/ping')).status, 200);
    const res = await request(`http://${row.host}:${row.port}/api/ping`);
    assert.equal(res.statusCode, 401);
    await res.body.dump();
  });
});
