import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'node:test';
import pg from 'pg';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { defaultCatalog } from '../src/domain/catalog.js';
import { assertError, assertOk } from './helpers/assert.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { newWorkgroup, waitForStatus } from './helpers/workspaces.js';
import { suiteUnless } from './helpers/skip.js';

// On PostgreSQL a request may commit a change to a workspace between the engine's read of it
// and its compare-and-set, or add a child between a delete's check and its write. Here a rename's transaction holds
// the row while the engine reads
// it and waits on it, and commits then. SQLite takes its one write lock for a whole
// transaction, so there the two cannot interleave.
const { it, before, after } = suiteUnless(storeName !== 'postgres' && 'needs PostgreSQL');

describe(`engine and a concurrent edit (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let watcher: pg.Client;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '1' });
    c = server.client;
    watcher = new pg.Client({ connectionString: server.store.databaseUrl });
    await watcher.connect();
  });
  after(async () => {
    await watcher.end();
    await server.close();
  });

  /** Renames the workspace in a transaction that commits only once `engineMove` waits on the row. */
  const renameDuring = (ws: string, name: string, engineMove: () => Promise<unknown>) =>
    writeDuring(
      'update workspaces set name = $2, version_number = version_number + 1 where id = $1',
      [ws, name],
      engineMove,
    );

  /** Runs `statement` in a transaction that commits only once `move` waits on a lock it holds. */
  async function writeDuring(statement: string, values: unknown[], move: () => Promise<unknown>): Promise<void> {
    const editor = new pg.Client({ connectionString: server.store.databaseUrl });
    await editor.connect();
    try {
      await editor.query('begin');
      await editor.query(statement, values);
      const moved = move();
      const waiting = async () =>
        (
          await watcher.query(
            'select count(*)::int as n from pg_stat_activity where ' +
              "datname = current_database() and wait_event_type = 'Lock'",
          )
        ).rows[0].n;
      for (let i = 0; i < 500 && (await waiting()) === 0; i++) await sleep(10);
      assert.ok((await waiting()) > 0, 'the other side waits on the held write');
      await editor.query('commit');
      await moved;
    } finally {
      await editor.end();
    }
  }

  it('a cloud provider renamed without If-Match while the engine changes it is renamed, not refused', async () => {
    const arn = 'arn:aws:iam::123456789012:role/acacia-race';
    const byoc = resultOf(
      await c.cloudProviders.create({ name: 'raced-byoc', platform: 'aws', region: 'us-east-1', role_arn: arn }),
    );
    let renamed: Awaited<ReturnType<typeof c.cloudProviders.update>> | undefined;
    // The held write stands for the engine's step: it changes the row and its version.
    await writeDuring(
      'update cloud_providers set version_number = version_number + 1 where id = $1',
      [byoc.id],
      async () => (renamed = await c.cloudProviders.update(byoc.id, { name: 'raced-byoc-renamed' })),
    );
    assert.equal(assertOk(renamed!).name, 'raced-byoc-renamed');
    // With If-Match, a version that moved on is still a 412.
    assertError(
      await c.cloudProviders.update(byoc.id, { name: 'stale' }, { ifMatch: byoc.version_number }),
      412,
      'Bad-Request',
      'If-Match',
    );
  });

  it('the outcome of an operation is written on the edited workspace, not lost', async () => {
    const wg = await newWorkgroup(c);
    const ws = resultOf(await c.workspaces.create(wg, { name: 'raced' })).workspace_id!;
    // The first step has run: the create now waits out its simulated 90 seconds. A new
    // operation is pending too, but due at once; one that waits is due later. The manual
    // clock stands still, so once reached this holds until the clock moves.
    const waits = async () => {
      const op = resultOf(await c.operations.list({ resource_id: ws }))[0];
      return op?.state === 'pending' && Date.parse(op.run_at) > Date.parse(op.created_at);
    };
    for (let i = 0; i < 200 && !(await waits()); i++) await sleep(20);
    assert.ok(
      await waits(),
      `the create never reached its simulated wait: ` +
        `${JSON.stringify(resultOf(await c.operations.list({ resource_id: ws })))}`,
    );
    await renameDuring(ws, 'raced-renamed', async () => assertOk(await c.moveClock({ advance_seconds: 120 })));
    const record = resultOf(await c.workspaces.get(wg, ws));
    assert.deepEqual([record.status, record.name], ['Active', 'raced-renamed']);
    assert.deepEqual(
      resultOf(await c.operations.list({ resource_id: ws })).map((o) => o.state),
      ['succeeded'],
    );
  });

  it('a scheduled occurrence starts on the edited workspace rather than being skipped', async () => {
    const wg = await newWorkgroup(c);
    const ws = resultOf(await c.workspaces.create(wg, { name: 'scheduled' })).workspace_id!;
    assertOk(await c.moveClock({ advance_seconds: 120 }));
    await waitForStatus(c, wg, ws, 'Active');
    const now = Date.parse(assertOk(await c.moveClock({ advance_seconds: 0 })).now);
    const at = new Date(Math.ceil((now + 60_000) / 60_000) * 60_000 + 60_000);
    const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
    const s = assertOk(
      await c.schedules.create(wg, ws, { repeat: 'daily', time, timezone: 'UTC', action: 'pause', workspace_id: ws }),
    );
    await renameDuring(ws, 'scheduled-renamed', async () => assertOk(await c.moveClock({ now: at.toISOString() })));
    const run = resultOf(await c.schedules.get(wg, ws, s.id)).last_run;
    assert.equal(run?.outcome, 'started', JSON.stringify(run));
    assert.equal(resultOf(await c.workspaces.get(wg, ws)).name, 'scheduled-renamed');
  });

  it('an update without If-Match waits for a concurrent write to the workspace instead of failing', async () => {
    const wg = await newWorkgroup(c);
    const ws = resultOf(await c.workspaces.create(wg, { name: 'contended' })).workspace_id!;
    assertOk(await c.moveClock({ advance_seconds: 120 }));
    await waitForStatus(c, wg, ws, 'Active');
    // The held write stands for the engine finishing an operation at the same moment.
    await renameDuring(ws, 'written-meanwhile', async () =>
      assertOk(await c.workspaces.update(wg, ws, { auto_stop_minutes: 45 })),
    );
    const record = resultOf(await c.workspaces.get(wg, ws));
    assert.deepEqual([record.name, record.auto_stop_minutes], ['written-meanwhile', 45]);
  });

  it('a delete that a child created meanwhile makes impossible is a 409, not an internal error', async () => {
    const wg = resultOf(await c.workgroups.create({ cloud_provider_id: await publicProvider(c), name: 'emptied' }));
    const now = Date.now();
    let refused: Awaited<ReturnType<typeof c.workgroups.delete>> | undefined;
    // The database arrives after the delete checked for children and before it runs.
    await writeDuring(
      'insert into databases (id, org_id, workgroup_id, name, name_key, tg_version, ' +
        'created_at, updated_at, version_number) values ($1, $2, $3, $4, $5, $6, $7, $7, 1)',
      [randomUUID(), wg.org_id, wg.workgroup_id, 'late-db', 'late-db', '4.2.1', now],
      async () => (refused = await c.workgroups.delete(wg.workgroup_id)),
    );
    assertError(refused!, 409, 'Bad-Request', 'workgroupID');
    assertOk(await c.workgroups.get(wg.workgroup_id));
  });

  it('an update merges agent_config into the row as it is after a concurrent change, losing neither', async () => {
    const wg = await newWorkgroup(c);
    const ws = resultOf(await c.workspaces.create(wg, { name: 'merged' })).workspace_id!;
    assertOk(await c.moveClock({ advance_seconds: 120 }));
    await waitForStatus(c, wg, ws, 'Active');
    await writeDuring(
      'update workspaces set agent_config = $2, version_number = version_number + 1 where id = $1',
      [ws, JSON.stringify({ heartbeat_interval_seconds: 5 })],
      async () =>
        assertOk(await c.workspaces.update(wg, ws, { agent_config: { topology_update_interval_seconds: 9 } })),
    );
    assert.deepEqual(resultOf(await c.workspaces.get(wg, ws)).agent_config, {
      heartbeat_interval_seconds: 5,
      topology_update_interval_seconds: 9,
    });
  });

  it('a workspace cannot enable an add-on that was disabled meanwhile', async () => {
    const org = await server.orgClient('addon-race', { tier: 'enterprise' });
    const addonsId = defaultCatalog.addons[0]!.addons_id;
    const installed = assertOk(await org.addons.install(addonsId, { enable: 'true' }));
    const wg = await newWorkgroup(org);
    let refused: Awaited<ReturnType<typeof org.workspaces.create>> | undefined;
    // Disabled as the API disables it, under the organisation's lock, after the create
    // checked the add-on and before it writes.
    await writeDuring(
      "with o as (select id from organisations where name = 'addon-race' for update) update installed_addons " +
        'set enabled = 0, version_number = version_number + 1 where id = $1 and org_id in (select id from o)',
      [installed.id],
      async () =>
        (refused = await org.workspaces.create(wg, {
          name: 'late-addon',
          addons: [{ addons_id: addonsId, enable: true }],
        })),
    );
    assertError(refused!, 409, 'Bad-Request', 'addons[0].enable');
    assert.deepEqual(resultOf(await org.workspaces.list(wg)), []);
  });
});
