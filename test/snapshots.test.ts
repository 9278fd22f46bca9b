import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { schemaLevel } from '../src/store/repositories/instance.js';
import { assertError, assertOk } from './helpers/assert.js';
import { runCli } from './helpers/cli.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { createStore } from './helpers/store-location.js';
import { hostTarget, TigerGraphReplay, type Auth } from './helpers/tigergraph-client.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const pgAdminUrl = process.env.ACACIA_TEST_DATABASE_URL;
const scratch = await fs.mkdtemp(path.join(tmpdir(), 'acacia-snapshots-test-'));
process.on('exit', () => void fs.rm(scratch, { recursive: true, force: true }));
let files = 0;
const scratchFile = (name: string) => path.join(scratch, `${++files}-${name}`);

/** Saves the instance through the client into a file of the test's own. */
async function save(client: AcaciaClient, name = 'instance.snapshot.gz'): Promise<string> {
  const answer = await client.downloadSnapshot();
  assert.ok('body' in answer, `the snapshot was refused: ${JSON.stringify(answer)}`);
  const file = scratchFile(name);
  await pipeline(answer.body, createWriteStream(file));
  return file;
}

const load = (client: AcaciaClient, file: string) => client.uploadSnapshot(createReadStream(file));

/** What the bootstrap key sees of the instance: every list, records whole. */
async function state(client: AcaciaClient) {
  const workgroups = resultOf(await client.workgroups.list());
  const perWorkgroup = [];
  for (const wg of workgroups) {
    perWorkgroup.push({
      workspaces: resultOf(await client.workspaces.list(wg.workgroup_id)),
      databases: resultOf(await client.databases.list(wg.workgroup_id)),
      allowList: resultOf(await client.allowList.list(wg.workgroup_id)),
    });
  }
  return {
    workgroups,
    perWorkgroup,
    keys: resultOf(await client.apiKeys.list()),
    operations: resultOf(await client.operations.list()),
    events: resultOf(await client.events.list()),
    providers: resultOf(await client.cloudProviders.list()),
    webhooks: resultOf(await client.webhooks.list()),
  };
}

/** A snapshot file of lines of our own making, with a right checksum and trailer. */
function craft(lines: object[], rows = 0): Buffer {
  const texts = lines.map((l) => `${JSON.stringify(l)}\n`);
  const sha256 = createHash('sha256').update(texts.join('')).digest('hex');
  return gzipSync(texts.join('') + `${JSON.stringify({ end: true, rows, files: 0, sha256 })}\n`);
}

const header = (schema = schemaLevel) => ({
  format: 'acacia-snapshot',
  version: 1,
  schema,
  created_at: '2030-01-01T00:00:00Z',
  store: 'sqlite',
});

describe(`snapshots (${storeName})`, () => {
  let server: TestServer;
  let client: AcaciaClient;

  before(async () => {
    server = await startTestServer({
      ACACIA_CLOCK: 'manual',
      ACACIA_SIM_SPEED: '0',
      ACACIA_WEBHOOK_ALLOW_PRIVATE: 'on',
    });
    client = server.client;
  });
  after(() => server.close());

  it('saves, and loads back the state a damage changed', async () => {
    const wg = await newWorkgroup(client, 'kept');
    const ws = await activeWorkspace(client, wg, { name: 'kept-ws' });
    assertOk(await client.allowList.create(wg, { cidr: '10.1.0.0/16', note: 'office' }));
    assertOk(await client.allowList.create(wg, { cidr: '2001:db8::/48' }));
    const doomed = await newWorkgroup(client, 'doomed');
    assertOk(await client.apiKeys.create({ key_name: 'ci', role: 'viewer' }));
    assertOk(await client.webhooks.create({ url: 'http://127.0.0.1:9/acacia', event_types: ['workgroup.created'] }));
    const saved = await state(client);
    const file = await save(client);

    // Damage: a workgroup deleted, a workspace changed, a key revoked, something new.
    assertOk(await client.workgroups.delete(doomed));
    assertOk(await client.workspaces.update(wg, ws.workspace_id!, { auto_stop_minutes: 45 }));
    assertOk(await client.apiKeys.revoke('ci'));
    await newWorkgroup(client, 'new-after');
    assert.notDeepEqual(await state(client), saved);

    const loadRes = await load(client, file);
    if (loadRes.status !== 200) console.error(server.logs.filter((l) => l.includes('"level":50')).join('\n'));
    const loaded = assertOk(loadRes);
    assert.equal(loaded.schema, schemaLevel);
    assert.ok(loaded.rows > 0);
    assert.deepEqual(await state(client), saved);

    // The loaded instance works on: allow-list counts, new events after the loaded ones.
    const third = await client.allowList.create(wg, { cidr: '192.0.2.0/24' });
    if (third.status !== 200) console.error(server.logs.filter((l) => l.includes('"level":50')).join('\n'));
    assertOk(third);
    assert.equal(resultOf(await client.allowList.list(wg)).length, 3);
    const events = resultOf(await client.events.list());
    assert.ok(events.length > saved.events.length);
  });

  it('refuses a damaged, truncated, foreign, newer or empty file whole, changing nothing', async () => {
    const before = await state(client);
    const good = await fs.readFile(await save(client));

    const inflated = gunzipSync(good);
    // One byte of a row changed, the gzip still whole: the checksum tells.
    const at = inflated.indexOf('"table":"workgroups"') + 40;
    const damaged = Buffer.from(inflated);
    damaged[at] = damaged[at] === 0x61 ? 0x62 : 0x61;
    const cases: Array<[string, Buffer, RegExp]> = [
      ['damaged', gzipSync(damaged), /checksum/],
      ['a byte of the gzip flipped', flip(good, Math.floor(good.length / 2)), /./],
      ['truncated', good.subarray(0, Math.floor(good.length * 0.6)), /truncated|gzip/],
      [
        'truncated at a line',
        gzipSync(inflated.subarray(0, inflated.lastIndexOf('\n', inflated.length - 2) + 1)),
        /trailer/,
      ],
      ['foreign', gzipSync('{"format":"something-else","version":1}\n'), /not an Acacia snapshot/],
      ['not gzip', Buffer.from('{"format":"acacia-snapshot"}\n'), /gzip/],
      ['newer', craft([header('9999-from-the-future')]), /newer/],
      ['empty', Buffer.alloc(0), /empty|gzip/],
      ['empty gzip', gzipSync(Buffer.alloc(0)), /empty/],
      ['unknown table', craft([header(), { table: 'secrets', row: { id: 'x' } }], 1), /unknown table/],
      ['a file outside the graphs', craft([header(), { file: '../../etc/passwd', size: 0 }]), /outside the graph/],
    ];
    for (const [what, bytes, reason] of cases) {
      const file = scratchFile(`${what.replace(/\W+/g, '-')}.gz`);
      await fs.writeFile(file, bytes);
      const detail = assertError(await load(client, file), 400, 'Bad-Request', 'snapshot');
      assert.match(detail.Reason, reason, what);
    }
    // A row that breaks a rule of the store is refused by it, in the load's one transaction.
    const clash = scratchFile('clash.gz');
    await fs.writeFile(
      clash,
      craft([header(), { table: 'workgroups', row: { id: 'no-such-org-ref', org_id: 'nobody' } }], 1),
    );
    const res = await load(client, clash);
    assert.notEqual(res.status, 200);
    assert.deepEqual(await state(client), before);
  });

  it('saves and loads through the CLI, printing JSON', async () => {
    const env = { ACACIA_URL: server.url, ACACIA_API_KEY: server.bootstrapKey };
    const file = scratchFile('cli.snapshot.gz');
    const saved = await runCli(['snapshot', 'save', file, '-o', 'json'], env);
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal(JSON.parse(saved.stdout).file, file);
    const before = await state(client);
    await newWorkgroup(client, 'cli-damage');
    const loaded = await runCli(['snapshot', 'load', file, '-o', 'json'], env);
    assert.equal(loaded.code, 0, loaded.stderr);
    assert.equal(JSON.parse(loaded.stdout).schema, schemaLevel);
    assert.deepEqual(await state(client), before);

    const bad = scratchFile('bad.gz');
    await fs.writeFile(bad, 'not a snapshot');
    const refused = await runCli(['snapshot', 'load', bad, '-o', 'json'], env);
    assert.notEqual(refused.code, 0);
  });

  it('starts a server from a snapshot (ACACIA_SNAPSHOT), and refuses to start from a bad one', async () => {
    const file = await save(client);
    const saved = await state(client);
    const started = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_SNAPSHOT: file });
    try {
      assert.deepEqual(await state(started.client.withKey(server.bootstrapKey)), saved);
    } finally {
      await started.close();
    }
    const bad = scratchFile('bad-at-start.gz');
    await fs.writeFile(bad, gzipSync('{"format":"something-else"}\n'));
    await assert.rejects(
      startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_SNAPSHOT: bad }),
      /not an Acacia snapshot/,
    );
  });

  it('refuses a key of another organisation', async () => {
    const other = await server.orgClient('elsewhere');
    const answer = await other.downloadSnapshot();
    assert.ok('error' in answer);
    assertError(answer.error, 403, 'Forbidden', 'x-api-key');
  });

  it('loads across stores: PostgreSQL to SQLite and back', { skip: !pgAdminUrl }, async () => {
    const file = await save(client);
    const saved = await state(client);
    // This file runs on PostgreSQL when the variable is set: the other store is SQLite.
    const sqlite = await createStore(undefined, 'acacia-test');
    const target = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' }, sqlite);
    try {
      assertOk(await load(target.client, file));
      // The saved instance's keys came along: the saving server's bootstrap key works there.
      const asSaved = target.client.withKey(server.bootstrapKey);
      assert.deepEqual(await state(asSaved), saved);
      // And back: what SQLite saves, PostgreSQL loads.
      await newWorkgroup(client, 'damage-before-return');
      const back = await save(asSaved);
      assertOk(await load(client, back));
      assert.deepEqual(await state(client), saved);
    } finally {
      await target.close();
      await sqlite.dispose();
    }
  });
});

describe(`snapshots outside test mode (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_FAULT_INJECTION: 'off' });
  });
  after(() => server.close());

  it('saves, but refuses a load, naming the setting', async () => {
    await newWorkgroup(server.client, 'stays');
    const file = await save(server.client);
    const before = await state(server.client);
    assertError(await load(server.client, file), 403, 'Forbidden', 'ACACIA_CLOCK');
    assert.deepEqual(await state(server.client), before);
  });
});

/** Flips one byte of a copy. */
function flip(bytes: Buffer, at: number): Buffer {
  const out = Buffer.from(bytes);
  out[at] = out[at]! ^ 0xff;
  return out;
}

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basic: Auth = { auth: alice };

describe(`snapshots of graph data, local driver (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_DRIVER: 'local', ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
  });
  after(() => server.close());

  it('brings the graph data back with the state', async () => {
    const c = server.client;
    const wg = await newWorkgroup(c, 'graphs');
    const ws = await activeWorkspace(c, wg, { name: 'graph-ws' });
    assertOk(await c.dbUsers.create(wg, ws.workspace_id!, alice));
    const tg = new TigerGraphReplay(hostTarget(server.running.gatewayUrl, ws.proxy_host!));
    const defined = await tg.gsql4(
      basic,
      'CREATE VERTEX Doc (PRIMARY_ID id STRING, text STRING)\nCREATE GRAPH docs (*)',
    );
    assert.match(defined.text, /The graph docs is created/);
    const upsert = (ids: string[]) =>
      tg.request(
        'POST',
        '/restpp/graph/docs',
        basic,
        JSON.stringify({ vertices: { Doc: Object.fromEntries(ids.map((id) => [id, { text: { value: id } }])) } }),
      );
    const count = async () => {
      const res = await tg.request('GET', '/restpp/graph/docs/vertices/Doc', basic);
      assert.equal(res.status, 200, res.text);
      return (res.json.results as unknown[]).length;
    };
    assert.equal((await upsert(['a', 'b', 'c'])).status, 200);
    assert.equal(await count(), 3);
    const file = await save(c);

    // Damage: more vertices, then the graph file gone altogether.
    assert.equal((await upsert(['d', 'e'])).status, 200);
    assert.equal(await count(), 5);

    assertOk(await load(c, file));
    // The engine starts the Active workspace again on the loaded graph.
    let got: number | undefined;
    for (let i = 0; i < 400 && got !== 3; i++) {
      const res = await tg.request('GET', '/restpp/graph/docs/vertices/Doc', basic);
      got = res.status === 200 ? (res.json.results as unknown[]).length : undefined;
      if (got !== 3) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(got, 3);

    // A reset takes the graphs with the databases.
    assertOk(await c.reset());
    await assert.rejects(fs.access(path.join(server.store.dataDir, 'graphs')), { code: 'ENOENT' });
  });
});
