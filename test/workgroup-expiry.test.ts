import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient, type EventRecord } from '../src/client/index.js';
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
import { activeWorkspace, waitForStatus } from './helpers/workspaces.js';

const HOUR = 3600;

describe(`expiring workgroups (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let provider: string;

  before(async () => {
    server = await startTestServer({
      ACACIA_SIM_SPEED: '0',
      ACACIA_CLOCK: 'manual',
      ACACIA_WORKGROUP_MAX_TTL_HOURS: '48',
    });
    c = server.client;
    provider = await publicProvider(c);
  });
  after(() => server.close());

  const now = async () => Date.parse(assertOk(await c.moveClock({ advance_seconds: 0 })).now);
  const eventsOf = async (wg: string): Promise<EventRecord[]> =>
    resultOf(await c.events.list({ since: 0, limit: 1000 })).filter((e) => e.workgroup_id === wg);

  it('refuses an expiry in the past, over the cap, or given twice, naming the field and creating nothing', async () => {
    const before = resultOf(await c.workgroups.list()).length;
    const past = new Date((await now()) - 1000).toISOString();
    assertError(
      await c.workgroups.create({ cloud_provider_id: provider, expires_at: past }),
      400,
      'Bad-Request',
      'expires_at',
    );
    const far = new Date((await now()) + 49 * HOUR * 1000).toISOString();
    const capped = assertError(
      await c.workgroups.create({ cloud_provider_id: provider, expires_at: far }),
      400,
      'Bad-Request',
      'expires_at',
    );
    assert.match(capped.Reason, /ACACIA_WORKGROUP_MAX_TTL_HOURS/);
    assertError(
      await c.workgroups.create({ cloud_provider_id: provider, expires_in_seconds: 49 * HOUR }),
      400,
      'Bad-Request',
      'expires_in_seconds',
    );
    assertError(
      await c.workgroups.create({ cloud_provider_id: provider, expires_at: far, expires_in_seconds: 60 }),
      400,
      'Bad-Request',
      'expires_in_seconds',
    );
    assert.equal(resultOf(await c.workgroups.list()).length, before);

    const wg = assertOk(await c.workgroups.create({ cloud_provider_id: provider }));
    assert.equal(wg.expires_at, undefined, 'without one it never expires');
    assertError(await c.workgroups.update(wg.workgroup_id, { expires_at: past }), 400, 'Bad-Request', 'expires_at');
    assert.equal(assertOk(await c.workgroups.get(wg.workgroup_id)).version_number, wg.version_number);
    assertOk(await c.workgroups.delete(wg.workgroup_id));
  });

  it('deletes the workgroup and everything in it when due, with events at that time, once', async () => {
    const start = await now();
    const wg = assertOk(await c.workgroups.create({ cloud_provider_id: provider, expires_in_seconds: HOUR }));
    const due = start + HOUR * 1000;
    assert.equal(wg.expires_at, new Date(due).toISOString().replace('.000Z', 'Z'));
    const rw = await activeWorkspace(c, wg.workgroup_id, { name: 'writer' });
    const ro = await activeWorkspace(c, wg.workgroup_id, {
      name: 'reader',
      is_rw: false,
      tg_database_id: rw.database_id!,
    });

    assertOk(await c.moveClock({ advance_seconds: HOUR - 1 }));
    assert.equal(assertOk(await c.workgroups.get(wg.workgroup_id)).workspaces.length, 2, 'not yet');
    assertOk(await c.moveClock({ advance_seconds: 1 }));
    assertError(await c.workgroups.get(wg.workgroup_id), 404, 'Not-Found', 'workgroupID');

    const events = await eventsOf(wg.workgroup_id);
    const types = events.map((e) => `${e.type}:${e.resource_id}`);
    const expired = events.filter((e) => e.type === 'workgroup.expired');
    assert.equal(expired.length, 1, 'expired once');
    assert.equal(Date.parse(expired[0]!.time), due, 'at its expires_at on the clock');
    for (const id of [ro.workspace_id, rw.workspace_id]) assert.ok(types.includes(`workspace.deleted:${id}`), id);
    assert.ok(types.includes(`database.deleted:${rw.database_id}`));
    const order = (t: string) => types.indexOf(t);
    assert.ok(order(`workgroup.expired:${wg.workgroup_id}`) < order(`workspace.deleted:${ro.workspace_id}`));
    assert.ok(order(`workspace.deleted:${ro.workspace_id}`) < order(`workspace.deleted:${rw.workspace_id}`));
    assert.equal(types.at(-1), `workgroup.deleted:${wg.workgroup_id}`);
    for (const e of events.filter((e) => e.type.endsWith('.deleted') || e.type === 'workgroup.expired'))
      assert.equal(Date.parse(e.time), due);
  });

  it('is postponed by an update, cleared by null, and refuses changes once under way', async () => {
    const wg = assertOk(await c.workgroups.create({ cloud_provider_id: provider, expires_in_seconds: HOUR }));
    const id = wg.workgroup_id;
    assertOk(await c.moveClock({ advance_seconds: HOUR / 2 }));
    const later = assertOk(await c.workgroups.update(id, { expires_in_seconds: 2 * HOUR }));
    assert.equal(Date.parse(later.expires_at!), (await now()) + 2 * HOUR * 1000);
    assertOk(await c.moveClock({ advance_seconds: HOUR }));
    assertOk(await c.workgroups.get(id));
    const never = assertOk(await c.workgroups.update(id, { expires_at: null }));
    assert.equal(never.expires_at, undefined);
    assertOk(await c.moveClock({ advance_seconds: 47 * HOUR }));
    assertOk(await c.workgroups.get(id));

    // A workspace whose delete is held keeps the expiry under way where it can be seen.
    const ws = await activeWorkspace(c, id, { name: 'slow-to-go', x_test_env: 'slow:delete=1h' });
    assertOk(await c.workgroups.update(id, { expires_in_seconds: 60 }));
    assertOk(await c.moveClock({ advance_seconds: 60 }));
    const going = assertOk(await c.workgroups.get(id));
    assert.ok(going.expired_at, 'its expiry started');
    await waitForStatus(c, id, ws.workspace_id!, 'Deleting');
    assertError(await c.workgroups.update(id, { expires_at: null }), 409, 'Bad-Request', 'workgroupID');
    assertError(await c.workspaces.create(id, { name: 'late' }), 409, 'Bad-Request', 'workgroupID');
    assertOk(await c.moveClock({ advance_seconds: HOUR }));
    assertError(await c.workgroups.get(id), 404, 'Not-Found', 'workgroupID');
  });

  it('is set from the CLI with --expires-in on create and update', async () => {
    const env = { ACACIA_URL: server.url, ACACIA_API_KEY: server.bootstrapKey };
    const cli = (...args: string[]) => runCli([...args, '-o', 'json'], env);
    const created = await cli(
      'workgroups',
      'create',
      '--provider',
      'aws/us-east-1',
      '--name',
      'ci-run',
      '--expires-in',
      '2h',
    );
    assert.equal(created.code, 0, created.stderr);
    const wg = JSON.parse(created.stdout) as { workgroup_id: string; expires_at: string };
    assert.equal(Date.parse(wg.expires_at), (await now()) + 2 * HOUR * 1000);
    const updated = await cli('workgroups', 'update', 'ci-run', '--expires-in', '3h');
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(
      Date.parse((JSON.parse(updated.stdout) as { expires_at: string }).expires_at),
      (await now()) + 3 * HOUR * 1000,
    );
    const cleared = await cli('workgroups', 'update', 'ci-run', '--expires-at', 'null');
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.equal((JSON.parse(cleared.stdout) as { expires_at?: string }).expires_at, undefined);
    const refused = await cli('workgroups', 'update', 'ci-run', '--expires-in', '100h');
    // The API's refusal as the CLI says it: status 400's exit, its Type and FieldName.
    assert.equal(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, /error: Bad-Request: expires_in_seconds: .*\(HTTP 400\)/);
    assertOk(await c.workgroups.delete(wg.workgroup_id));
  });
});

describe(`expiry and chaos rules across processes (${storeName})`, () => {
  // Several processes share one PostgreSQL (DESIGN §10); SQLite's scale is one process.
  const { it } = suiteUnless(storeName !== 'postgres' && 'needs PostgreSQL');

  it('expires a workgroup once with two engines, and applies a rule added through the other process', async () => {
    const store = await freshStore();
    const key = newKeyText();
    const servers: ServeProcess[] = [];
    try {
      for (let i = 0; i < 2; i++) servers.push(await serveProcess(store, key, { ACACIA_SIM_SPEED: '0' }));
      const [a, b] = servers as [ServeProcess, ServeProcess];
      const provider = await publicProvider(a.client);
      const wg = assertOk(await a.client.workgroups.create({ cloud_provider_id: provider, expires_in_seconds: 60 }));
      const workspaces = [];
      for (const name of ['one', 'two', 'three'])
        workspaces.push(await activeWorkspace(a.client, wg.workgroup_id, { name }));

      assertOk(await a.client.moveClock({ advance_seconds: 60 }));
      // Both engines see the due expiry; whichever claims it, the other finds it gone.
      for (let i = 0; i < 500 && (await b.client.workgroups.get(wg.workgroup_id)).status !== 404; i++)
        await new Promise((r) => setTimeout(r, 20));
      assertError(await b.client.workgroups.get(wg.workgroup_id), 404, 'Not-Found', 'workgroupID');
      const events = resultOf(await b.client.events.list({ since: 0, limit: 1000 })).filter(
        (e) => e.workgroup_id === wg.workgroup_id,
      );
      assert.equal(events.filter((e) => e.type === 'workgroup.expired').length, 1);
      assert.equal(events.filter((e) => e.type === 'workgroup.deleted').length, 1);
      for (const ws of workspaces)
        assert.equal(
          events.filter((e) => e.type === 'workspace.deleted' && e.resource_id === ws.workspace_id).length,
          1,
        );

      // A rule added through a reaches b's requests within its refresh (a second of real time).
      assertOk(await a.client.chaos.add({ endpoint: 'listWorkgroups', error_rate: 1, ttl_seconds: 600 }));
      let status = 200;
      for (let i = 0; i < 200 && status === 200; i++) {
        status = (await b.client.workgroups.list()).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(status, 503);
      assertOk(await b.client.chaos.clear());
      assertOk(await b.client.workgroups.list());
    } finally {
      await Promise.all(servers.map((s) => stopProcess(s.child, 'SIGKILL')));
      await store.dispose();
    }
  });
});
