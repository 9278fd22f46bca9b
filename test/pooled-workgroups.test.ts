import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { resultOf, type AcaciaClient, type WorkgroupRecord } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { runCli } from './helpers/cli.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import {
  freshStore,
  newKeyText,
  publicProvider,
  startTestServer,
  storeName,
  type TestServer,
} from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';
import { activeWorkspace } from './helpers/workspaces.js';

/** Polls (real time, bounded) until `probe` answers `want`; the engine works beside the test. */
async function until<T>(probe: () => Promise<T>, want: T, what: string): Promise<void> {
  let got: T | undefined;
  for (let i = 0; i < 500; i++) {
    got = await probe();
    if (got === want) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`${what}: ${String(got)}, not ${String(want)}`);
}

describe(`pooled workgroups (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  const ready = () => server.running.services.pool.ready();

  before(async () => {
    server = await startTestServer({
      ACACIA_SIM_SPEED: '0',
      ACACIA_CLOCK: 'manual',
      ACACIA_POOL_SIZE: '2',
      ACACIA_POOL_ACQUIRES_PER_HOUR: '3',
    });
    c = server.client;
  });
  after(() => server.close());

  it('is filled at start, and no organisation sees its workgroups', async () => {
    await until(ready, 2, 'ready pooled workgroups');
    assert.deepEqual(resultOf(await c.workgroups.list()), []);
    const other = await server.orgClient('onlooker');
    assert.deepEqual(resultOf(await other.workgroups.list()), []);
    assert.deepEqual(
      resultOf(await c.events.list({ since: 0, limit: 1000 })).filter((e) => e.resource_kind === 'workgroup'),
      [],
      'the pool’s events are its own organisation’s',
    );
  });

  let first: WorkgroupRecord;

  it('hands over a workgroup with an Active workspace at once, with the events of a creation', async () => {
    await until(ready, 2, 'ready pooled workgroups');
    const res = await c.workgroups.acquire();
    first = assertOk(res);
    assert.equal(res.body.Message, 'Pooled workgroup acquired.');
    assert.equal(first.workspaces.length, 1);
    const ws = first.workspaces[0]!;
    assert.equal(ws.status, 'Active');
    assert.equal(ws.is_rw, true);
    assert.equal(ws.workspace_type.typeName, 'TG-00');
    assert.equal(first.tg_databases.length, 1);
    assert.equal(first.creator, 'bootstrap');
    // Now the organisation's, as any workgroup of it.
    const got = assertOk(await c.workgroups.get(first.workgroup_id));
    assert.equal(got.org_name, 'default');
    assert.deepEqual(
      resultOf(await c.workgroups.list()).map((w) => w.workgroup_id),
      [first.workgroup_id],
    );
    const events = resultOf(await c.events.list({ since: 0, limit: 1000 })).filter(
      (e) => e.workgroup_id === first.workgroup_id,
    );
    const types = events.map((e) => `${e.type}:${e.resource_id}`);
    assert.ok(types.includes(`workgroup.created:${first.workgroup_id}`), types.join());
    assert.ok(types.includes(`database.created:${first.tg_databases[0]!.database_id}`), types.join());
    assert.ok(types.includes(`workspace.created:${ws.workspace_id}`), types.join());
    // Another organisation still cannot see it.
    const other = await server.orgClient('onlooker');
    assertError(await other.workgroups.get(first.workgroup_id), 404, 'Not-Found', 'workgroupID');
    await until(ready, 2, 'the pool refilled');
  });

  it('gives two concurrent acquisitions different workgroups', async () => {
    await until(ready, 2, 'ready pooled workgroups');
    const [a, b] = await Promise.all([c.workgroups.acquire(), c.workgroups.acquire()]);
    const ids = [assertOk(a).workgroup_id, assertOk(b).workgroup_id];
    assert.notEqual(ids[0], ids[1]);
    assert.ok(!ids.includes(first.workgroup_id));
    assert.equal(resultOf(await c.workgroups.list()).length, 3);
    await until(ready, 2, 'the pool refilled');
  });

  it('caps acquisitions per organisation an hour (429), then allows them again', async () => {
    const capped = assertError(await c.workgroups.acquire(), 429, 'Quota-Exceed', 'ACACIA_POOL_ACQUIRES_PER_HOUR');
    assert.match(capped.Reason, /at most 3 pooled workgroups/);
    assert.equal(resultOf(await c.workgroups.list()).length, 3, 'nothing moved');
    assertOk(await c.moveClock({ advance_seconds: 3600 }));
    await until(ready, 2, 'ready pooled workgroups');
    assertOk(await c.workgroups.acquire());
    await until(ready, 2, 'the pool refilled');
  });

  it("refuses what the caller's tier does not allow, naming the field, and moves nothing", async () => {
    await until(ready, 2, 'ready pooled workgroups');
    const free = await server.orgClient('free-org', { tier: 'free' });
    const wg = assertOk(await free.workgroups.create({ cloud_provider_id: await publicProvider(free) }));
    await activeWorkspace(free, wg.workgroup_id, { name: 'only-rw' });
    assertError(await free.workgroups.acquire(), 403, 'Quota-Exceed', 'is_rw');
    assert.equal(resultOf(await free.workgroups.list()).length, 1, 'nothing moved');
    assert.equal(await ready(), 2, 'the pool kept both');

    const viewer = await server.orgClient('free-org', { role: 'viewer' });
    assertError(await viewer.workgroups.acquire(), 403, 'Forbidden', 'x-api-key');
    assert.equal(await ready(), 2);

    // A free organisation with room gets one, with the tier's auto-stop.
    const fresh = await server.orgClient('free-fresh', { tier: 'free' });
    const got = assertOk(await fresh.workgroups.acquire());
    assert.equal(got.workspaces[0]!.status, 'Active');
    assert.equal(got.workspaces[0]!.auto_stop_minutes, 60);
  });

  it('is acquired from the CLI', async () => {
    await until(ready, 2, 'ready pooled workgroups');
    const { organisations, apiKeys } = server.running.services;
    const org = await organisations.ensure('cli-org', 'enterprise');
    const apiKey = (await apiKeys.issue({ orgId: org.id, keyName: 'cli', role: 'org-admin' })).plaintext_key!;
    const key = server.client.withKey(apiKey);
    const res = await runCli(['workgroups', 'acquire', '-o', 'json'], {
      ACACIA_URL: server.url,
      ACACIA_API_KEY: apiKey,
    });
    assert.equal(res.code, 0, res.stderr);
    const wg = JSON.parse(res.stdout) as WorkgroupRecord;
    assert.equal(wg.workspaces[0]!.status, 'Active');
    assert.equal(resultOf(await key.workgroups.list())[0]!.workgroup_id, wg.workgroup_id);
  });
  it('is refilled after a reset, which removes what was acquired', async () => {
    await until(ready, 2, 'ready pooled workgroups');
    const before = await server.running.services.store.db
      .selectFrom('workgroups')
      .select('id')
      .where('org_id', 'in', (eb) => eb.selectFrom('organisations').select('id').where('name', '=', '_pool'))
      .execute();
    assertOk(await c.reset());
    assert.deepEqual(resultOf(await c.workgroups.list()), []);
    await until(ready, 2, 'the pool refilled after the reset');
    const after = await server.running.services.store.db
      .selectFrom('workgroups')
      .select('id')
      .where('org_id', 'in', (eb) => eb.selectFrom('organisations').select('id').where('name', '=', '_pool'))
      .execute();
    assert.equal(after.length, 2);
    assert.ok(
      after.every((w) => !before.some((b) => b.id === w.id)),
      'new members',
    );
  });
});

describe(`pooled workgroups not ready, or off (${storeName})`, () => {
  let server: TestServer;
  before(async () => {
    // The realistic pace: a member is Creating for 90 s of the manual clock.
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_POOL_SIZE: '1' });
  });
  after(() => server.close());

  it('answers 503 with Retry-After while no member is ready, then hands one over', async () => {
    const c = server.client;
    const res = await c.workgroups.acquire();
    assertError(res, 503, 'Internal-Error', 'pooled-workgroups');
    assert.equal(res.headers['retry-after'], '5');
    assert.deepEqual(resultOf(await c.workgroups.list()), [], 'nothing moved');
    assertOk(await c.moveClock({ advance_seconds: 600 }));
    await until(() => server.running.services.pool.ready(), 1, 'ready pooled workgroups');
    assert.equal(assertOk(await c.workgroups.acquire()).workspaces[0]!.status, 'Active');
  });

  it('keeps members from the default life of workgroups, and gives an acquired one that life', async () => {
    const ttl = await startTestServer({
      ACACIA_CLOCK: 'manual',
      ACACIA_SIM_SPEED: '0',
      ACACIA_POOL_SIZE: '1',
      ACACIA_WORKGROUP_DEFAULT_TTL_HOURS: '1',
    });
    try {
      const members = async () =>
        (
          await ttl.running.services.store.db
            .selectFrom('workgroups')
            .select('id')
            .where('org_id', 'in', (eb) => eb.selectFrom('organisations').select('id').where('name', '=', '_pool'))
            .execute()
        ).length;
      await until(() => ttl.running.services.pool.ready(), 1, 'ready pooled workgroups');
      for (let i = 0; i < 3; i++) {
        assertOk(await ttl.client.moveClock({ advance_seconds: 31 }));
        assert.equal(await members(), 1, 'a member does not expire, and is not made twice');
      }
      const now = Date.parse(assertOk(await ttl.client.moveClock({ advance_seconds: 0 })).now);
      const got = assertOk(await ttl.client.workgroups.acquire());
      assert.equal(Date.parse(got.expires_at!), now + 3_600_000);
    } finally {
      await ttl.close();
    }
  });

  it('answers API-Disabled naming ACACIA_POOL_SIZE when the server keeps no pool', async () => {
    const off = await startTestServer({ ACACIA_CLOCK: 'manual' });
    try {
      assertError(await off.client.workgroups.acquire(), 403, 'API-Disabled', 'ACACIA_POOL_SIZE');
      assert.deepEqual(resultOf(await off.client.workgroups.list()), []);
    } finally {
      await off.close();
    }
  });
});

describe(`the pool across processes (${storeName})`, () => {
  // Several processes share one PostgreSQL (DESIGN §10); SQLite's scale is one process.
  const { it } = suiteUnless(storeName !== 'postgres' && 'needs PostgreSQL');

  it('keeps exactly its size warm with two engines, through an acquisition', async () => {
    const store = await freshStore();
    const key = newKeyText();
    const servers: ServeProcess[] = [];
    const db = new pg.Client({ connectionString: store.databaseUrl });
    await db.connect();
    // Every live workgroup of the pool's organisation, ready or not.
    const members = async () =>
      (
        await db.query(
          `select count(*)::int as n from workgroups w join organisations o on o.id = w.org_id
           where o.name = '_pool' and w.expires_at is null and w.expired_at is null`,
        )
      ).rows[0].n as number;
    try {
      const env = { ACACIA_SIM_SPEED: '0', ACACIA_POOL_SIZE: '3' };
      // Started together, so both engines fill the empty pool at the same time.
      servers.push(...(await Promise.all([serveProcess(store, key, env), serveProcess(store, key, env)])));
      const [a, b] = servers as [ServeProcess, ServeProcess];
      await until(members, 3, 'pooled workgroups');
      // Both engines count again on the clock's checks: still three.
      for (let i = 0; i < 3; i++) {
        assertOk(await a.client.moveClock({ advance_seconds: 31 }));
        assert.equal(await members(), 3);
      }
      const [one, two] = await Promise.all([a.client.workgroups.acquire(), b.client.workgroups.acquire()]);
      assert.notEqual(assertOk(one).workgroup_id, assertOk(two).workgroup_id);
      await until(members, 3, 'pooled workgroups after the refill');
      for (let i = 0; i < 3; i++) {
        assertOk(await b.client.moveClock({ advance_seconds: 31 }));
        assert.equal(await members(), 3);
      }
      assert.equal(resultOf(await b.client.workgroups.list()).length, 2);
    } finally {
      await db.end();
      await Promise.all(servers.map((s) => stopProcess(s.child, 'SIGKILL')));
      await store.dispose();
    }
  });
});
