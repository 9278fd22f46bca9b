import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { isPidAlive } from '../src/dataplane/index.js';
import { iso } from '../src/domain/time.js';
import { findRuntime } from '../src/store/repositories/workspace-runtimes.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus, windowTomorrow } from './helpers/workspaces.js';

/**
 * The version catalog these tests run on: every rule of it has a version that trips it.
 * 4.1.0 cannot move to 4.2.1 in place; 4.1.3 is an upgrade only; 4.2.2 is for new workspaces
 * only; 3.9.0 and 4.3.0 are past their end of life; 4.4.0 is a preview; 4.5.0 a custom build
 * for one organisation.
 */
const versions = [
  { name: '3.9.0', end_of_life: '2000-01-01' },
  '4.1.0',
  { name: '4.1.3', allow_create: false },
  { name: '4.2.0', channel: 'lts' },
  { name: '4.2.1', incompatible_upgrades_from: ['4.1.0'] },
  { name: '4.2.2', allow_upgrade: false },
  { name: '4.3.0', end_of_life: '2001-06-30T00:00:00Z' },
  { name: '4.4.0', channel: 'preview' },
  { name: '4.5.0', orgs: ['upgrades-custom'] },
];

const HOUR = 3_600_000;

// ACACIA_SIM_SPEED=0 finishes each step on the engine's next tick; the manual clock moves only
// when a test moves it, so a maintenance window comes exactly when the test says.
describe(`workspace upgrades (${storeName})`, () => {
  let server: TestServer;
  let dir: string;
  let c: AcaciaClient;
  let wg: string;
  let orgs = 0;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'acacia-upgrades-'));
    const config = path.join(dir, 'catalog.json');
    writeFileSync(config, JSON.stringify({ tg_versions: versions }));
    server = await startTestServer({ ACACIA_CONFIG: config, ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
  });
  // Each test has an organisation of its own, so tier quotas never couple tests.
  beforeEach(async () => {
    c = await server.orgClient(`upgrades-${++orgs}`);
    wg = await newWorkgroup(c, 'upgrades');
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const now = async () => Date.parse(assertOk(await c.moveClock({ advance_seconds: 0 })).now);
  const advanceTo = async (ms: number) => assertOk(await c.moveClock({ now: new Date(ms).toISOString() }));
  const ops = async (ws: string) => resultOf(await c.operations.list({ resource_id: ws }));
  const upgradeEvents = async (ws: string) =>
    resultOf(
      await c.events.list({ since: 0, limit: 1000, type: 'operation.started,operation.succeeded,operation.failed' }),
    )
      .filter((e) => e.workspace_id === ws && (e.data as { kind?: string }).kind === 'workspace.upgrade')
      .map((e) => e.type);

  describe('the catalog', () => {
    it('meta lists the versions a workspace may be created at, as TGVersion records', async () => {
      const meta = assertOk(await c.meta());
      assert.deepEqual(meta.tg_versions, ['4.1.0', '4.2.0', '4.2.1', '4.2.2', '4.4.0']);
      assert.equal(meta.default_tg_version, '4.2.2', 'the newest outside the preview channel');
      assert.deepEqual(
        meta.tgVersions.find((v) => v.name === '4.2.1'),
        {
          name: '4.2.1',
          image: 'tigergraph/tigergraph:4.2.1',
          channel: 'stable',
          allow_create: true,
          allow_upgrade: true,
          incompatible_upgrades_from: ['4.1.0'],
          orgs: [],
        },
      );
      assert.equal(meta.tgVersions.find((v) => v.name === '4.2.0')?.channel, 'lts');
      assert.equal(meta.tgVersions.find((v) => v.name === '4.4.0')?.channel, 'preview');
    });

    it('meta?upgrade=true lists the upgrade targets; a custom build only for its organisation', async () => {
      const upgrade = assertOk(await c.meta({ upgrade: 'true' }));
      assert.deepEqual(
        upgrade.tgVersions.map((v) => v.name),
        ['4.1.0', '4.1.3', '4.2.0', '4.2.1', '4.4.0'],
      );
      const custom = await server.orgClient('upgrades-custom');
      assert.deepEqual(assertOk(await custom.meta({ upgrade: 'true' })).tg_versions.at(-1), '4.5.0');
      assert.deepEqual(assertOk(await custom.meta()).tgVersions.at(-1)?.orgs, ['upgrades-custom']);
      assertError(await c.meta({ upgrade: 'yes' as 'true' }), 400, 'Bad-Request', 'upgrade');
    });

    it('refuses to create at a version not offered for creation, naming tg_version; nothing made', async () => {
      for (const [version, reason] of [
        ['9.9.9', /must be one of 4\.1\.0, 4\.2\.0/],
        ['3.9.0', /end of life/],
        ['4.1.3', /not offered for new workspaces/],
        ['4.5.0', /must be one of/],
      ] as const) {
        const refused = assertError(
          await c.workspaces.create(wg, { name: `at-${version}`, tg_version: version }),
          400,
          'Bad-Request',
          'tg_version',
        );
        assert.match(refused.Reason, reason);
      }
      assert.deepEqual(resultOf(await c.workspaces.list(wg)), []);
      const created = assertOk(await c.workspaces.create(wg, { name: 'default-version' }));
      assert.equal(created.tg_version, '4.2.2');
    });
  });

  it('upgrade now: Updating (Upgrade) → Active at the new version, with its operation and events', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'now', tg_version: '4.1.0' });
    const id = ws.workspace_id!;
    const started = assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.1.3' }));
    assert.equal(started.status, 'Updating');
    assert.equal(started.condition_type, 'Upgrade');
    assert.equal(started.tg_version, '4.1.0', 'the record shows what runs until the upgrade is done');
    const upgraded = await waitForStatus(c, wg, id, 'Active');
    assert.equal(upgraded.tg_version, '4.1.3');
    assert.equal(upgraded.condition_type, 'Normal');
    assert.equal(upgraded.err_message, undefined);

    // Without a version: the newest it may move to outside the preview channel (4.2.1 is
    // incompatible with 4.1.0 but not with 4.1.3).
    assertOk(await c.workspaces.upgrade(wg, id, {}));
    assert.equal((await waitForStatus(c, wg, id, 'Active')).tg_version, '4.2.1');
    const kinds = (await ops(id)).map((o) => [o.kind, o.state, o.params.tg_version]);
    assert.deepEqual(kinds.filter(([k]) => k === 'workspace.upgrade').sort(), [
      ['workspace.upgrade', 'succeeded', '4.1.3'],
      ['workspace.upgrade', 'succeeded', '4.2.1'],
    ]);
    assert.deepEqual(await upgradeEvents(id), [
      'operation.started',
      'operation.succeeded',
      'operation.started',
      'operation.succeeded',
    ]);
  });

  it('a scheduled upgrade is listed in upgrade-next-window and runs when the window opens, not before', async () => {
    const window = await windowTomorrow(c);
    const ws = await activeWorkspace(c, wg, { name: 'scheduled', tg_version: '4.1.0', ...window });
    const id = ws.workspace_id!;
    const asked = await now();
    const waiting = assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.2.0', scheduled: true }));
    assert.equal(waiting.status, 'Active');
    assert.equal(waiting.tg_version, '4.1.0');
    assert.equal(waiting.desired_tg_version, '4.2.0');
    assert.equal(Date.parse(waiting.upgrade_requested_at!), asked);
    assert.match(waiting.upgrade_requested_by!, /^test-/);
    const start = Date.parse(waiting.upgrade_window_start!);
    assert.ok(start > asked && start - asked <= 7 * 24 * HOUR);
    assert.equal(new Date(start).getUTCDay(), window.maintenance_window_day_of_week);
    assert.equal(new Date(start).getUTCHours(), window.maintenance_window_hour_of_day);

    const listed = assertOk(await c.workspaces.upgradeNextWindow());
    assert.deepEqual(listed, [
      {
        workspace_id: id,
        workspace_name: 'scheduled',
        workgroup_id: wg,
        status: 'Active',
        tg_version: '4.1.0',
        desired_version: '4.2.0',
        window_start: iso(start),
        window_end: iso(start + HOUR),
        requested_at: iso(asked),
        requested_by: waiting.upgrade_requested_by,
      },
    ]);

    await advanceTo(start - 60_000);
    const before = resultOf(await c.workspaces.get(wg, id));
    assert.equal(before.status, 'Active');
    assert.equal(before.tg_version, '4.1.0', 'a minute before the window nothing ran');
    assert.equal((await ops(id)).filter((o) => o.kind === 'workspace.upgrade').length, 0);

    await advanceTo(start);
    const upgraded = await c.waitForWorkspace(wg, id, (w) => w.tg_version === '4.2.0' && w.status === 'Active');
    assert.equal(upgraded?.tg_version, '4.2.0');
    assert.equal(upgraded?.desired_tg_version, undefined);
    assert.equal(upgraded?.upgrade_window_start, undefined);
    assert.equal(upgraded?.upgrade_requested_by, undefined);
    assert.equal(Date.parse(upgraded!.last_maintenance!), start);
    const [op] = (await ops(id)).filter((o) => o.kind === 'workspace.upgrade');
    assert.equal(op?.state, 'succeeded');
    assert.equal(op?.params.maintenance, true);
    assert.deepEqual(assertOk(await c.workspaces.upgradeNextWindow()), []);
  });

  it('a new request replaces a waiting upgrade; PUT with the running version cancels it', async () => {
    const ws = await activeWorkspace(c, wg, {
      name: 'replaced',
      tg_version: '4.1.0',
      ...(await windowTomorrow(c)),
    });
    const id = ws.workspace_id!;
    assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.1.3', scheduled: true }));
    assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.2.0', scheduled: true }));
    const listed = assertOk(await c.workspaces.upgradeNextWindow());
    assert.deepEqual(
      listed.map((u) => [u.workspace_id, u.desired_version]),
      [[id, '4.2.0']],
    );
    const cancelled = assertOk(await c.workspaces.update(wg, id, { desired_tg_version: '4.1.0' }));
    assert.equal(cancelled.desired_tg_version, undefined);
    assert.equal(cancelled.upgrade_window_start, undefined);
    assert.deepEqual(assertOk(await c.workspaces.upgradeNextWindow()), []);

    // An upgrade now drops the one waiting.
    assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.2.0', scheduled: true }));
    assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.1.3' }));
    const done = await waitForStatus(c, wg, id, 'Active');
    assert.equal(done.tg_version, '4.1.3');
    assert.equal(done.desired_tg_version, undefined);
    assert.deepEqual(assertOk(await c.workspaces.upgradeNextWindow()), []);
  });

  it('a driver failure leaves it Active at the old version, the operation failed with the reason', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'failing', tg_version: '4.1.0', x_test_env: 'fail:upgrade' });
    const id = ws.workspace_id!;
    assert.equal(assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.2.0' })).status, 'Updating');
    const back = await c.waitForWorkspace(wg, id, (w) => w.status !== 'Updating');
    assert.equal(back?.status, 'Active');
    assert.equal(back?.tg_version, '4.1.0');
    assert.equal(back?.condition_type, 'Normal');
    assert.match(back!.err_message!, /the upgrade from 4\.1\.0 to 4\.2\.0 failed: .*simulated upgrade failure/);
    const [op] = (await ops(id)).filter((o) => o.kind === 'workspace.upgrade');
    assert.equal(op?.state, 'failed');
    assert.equal(op?.attempt, 3);
    assert.match(op!.error!, /simulated upgrade failure/);
    assert.deepEqual(await upgradeEvents(id), ['operation.started', 'operation.failed']);

    // It runs on: a later upgrade without the fault succeeds and clears the message.
    assertOk(await c.workspaces.update(wg, id, { x_test_env: '' }));
    assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.2.0' }));
    const upgraded = await waitForStatus(c, wg, id, 'Active');
    assert.equal(upgraded.tg_version, '4.2.0');
    assert.equal(upgraded.err_message, undefined);
  });

  describe('bad input changes nothing', () => {
    it('refuses unknown, older, end-of-life, incompatible, not-offered versions, naming desired_version', async () => {
      const ws = await activeWorkspace(c, wg, { name: 'refusals', tg_version: '4.1.0' });
      const id = ws.workspace_id!;
      const cases = [
        ['9.9.9', /must be one of 4\.1\.3, 4\.2\.0, 4\.4\.0/],
        ['3.9.0', /older than the running version 4\.1\.0/],
        ['4.3.0', /end of life on 2001-06-30/],
        ['4.2.1', /cannot be upgraded to in place from 4\.1\.0/],
        ['4.2.2', /not offered as an upgrade/],
        ['4.5.0', /must be one of/],
        ['4.1.0', /runs 4\.1\.0 already/],
      ] as const;
      for (const [version, reason] of cases) {
        for (const scheduled of [false, true]) {
          const refused = assertError(
            await c.workspaces.upgrade(wg, id, { desired_version: version, scheduled }),
            400,
            'Bad-Request',
            'desired_version',
          );
          assert.match(refused.Reason, reason, version);
        }
      }
      assertError(
        await c.workspaces.upgrade(wg, id, { scheduled: 'soon' as unknown as boolean }),
        400,
        'Bad-Request',
        'scheduled',
      );
      assertError(await c.workspaces.upgrade(wg, id, { desired_version: '' }), 400, 'Bad-Request', 'desired_version');
      assertOk(await c.workspaces.update(wg, id, { auto_upgrade_state: 'disabled' }));
      const held = resultOf(await c.workspaces.get(wg, id));
      assertError(
        await c.workspaces.upgrade(wg, id, { desired_version: '4.2.0', scheduled: true }),
        400,
        'Bad-Request',
        'scheduled',
      );
      const after = resultOf(await c.workspaces.get(wg, id));
      assert.deepEqual(after, held, 'nothing changed');
      assert.equal(after.tg_version, '4.1.0');
      assert.equal((await ops(id)).filter((o) => o.kind === 'workspace.upgrade').length, 0);
      assert.deepEqual(assertOk(await c.workspaces.upgradeNextWindow()), []);
    });

    it("PUT's desired_tg_version follows the same rules", async () => {
      const ws = await activeWorkspace(c, wg, {
        name: 'put-rules',
        tg_version: '4.1.0',
        ...(await windowTomorrow(c)),
      });
      const id = ws.workspace_id!;
      for (const version of ['4.2.1', '4.2.2', '4.3.0', '3.9.0']) {
        assertError(
          await c.workspaces.update(wg, id, { desired_tg_version: version }),
          400,
          'Bad-Request',
          'desired_tg_version',
        );
        assertError(
          await c.workspaces.update(wg, id, { desired_tg_version: version, update_strategy: 'immediate' }),
          400,
          'Bad-Request',
          'desired_tg_version',
        );
      }
      const same = resultOf(await c.workspaces.get(wg, id));
      assert.equal(same.version_number, ws.version_number);
      assert.equal(same.desired_tg_version, undefined);
      // What the rules allow still goes through PUT, scheduled by update_strategy.
      const pending = assertOk(await c.workspaces.update(wg, id, { desired_tg_version: '4.2.0' }));
      assert.equal(pending.desired_tg_version, '4.2.0');
      assert.ok(pending.upgrade_window_start);
      assert.deepEqual(
        assertOk(await c.workspaces.upgradeNextWindow()).map((u) => u.desired_version),
        ['4.2.0'],
      );
    });

    it('an upgrade now needs an Active workspace (409); another organisation 404; a viewer 403', async () => {
      const ws = await activeWorkspace(c, wg, {
        name: 'guarded',
        tg_version: '4.1.0',
        ...(await windowTomorrow(c)),
      });
      const id = ws.workspace_id!;
      assertOk(await c.workspaces.pause(wg, id));
      await waitForStatus(c, wg, id, 'Stopped');
      assertError(await c.workspaces.upgrade(wg, id, { desired_version: '4.2.0' }), 409, 'Bad-Request', 'status');
      // A stopped workspace may still wait for its window.
      assert.equal(
        assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.2.0', scheduled: true })).desired_tg_version,
        '4.2.0',
      );
      const before = resultOf(await c.workspaces.get(wg, id));

      const stranger = await server.orgClient(`upgrades-stranger-${orgs}`);
      assertError(
        await stranger.workspaces.upgrade(wg, id, { desired_version: '4.1.3' }),
        404,
        'Not-Found',
        'workgroupID',
      );
      assert.deepEqual(assertOk(await stranger.workspaces.upgradeNextWindow()), []);
      assertError(await c.workspaces.upgrade(wg, 'no-such-ws', {}), 404, 'Not-Found', 'workspaceID');

      const viewer = await server.orgClient(`upgrades-${orgs}`, { role: 'viewer' });
      assertError(
        await viewer.workspaces.upgrade(wg, id, { desired_version: '4.1.3', scheduled: true }),
        403,
        'Forbidden',
        'x-api-key',
      );
      // Reading what waits is open to every role of the organisation.
      assert.equal(assertOk(await viewer.workspaces.upgradeNextWindow()).length, 1);
      assert.deepEqual(resultOf(await c.workspaces.get(wg, id)), before, 'nothing changed');
    });
  });
});

// The rules are checked again when the window opens: a version that reached its end of life
// since the upgrade was asked for is not installed.
describe(`a scheduled upgrade whose version reached its end of life meanwhile (${storeName})`, () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'acacia-upgrades-eol-'));
    const config = path.join(dir, 'catalog.json');
    const endOfLife = new Date(Date.now() + 2 * HOUR).toISOString();
    writeFileSync(config, JSON.stringify({ tg_versions: ['4.1.0', { name: '4.2.0', end_of_life: endOfLife }] }));
    server = await startTestServer({ ACACIA_CONFIG: config, ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is dropped at the window, the workspace left at its version with the reason', async () => {
    const c = await server.orgClient('upgrades-eol');
    const wg = await newWorkgroup(c, 'upgrades-eol');
    const clock = Date.parse(assertOk(await c.moveClock({ advance_seconds: 0 })).now);
    const ws = await activeWorkspace(c, wg, { name: 'eol', tg_version: '4.1.0', ...(await windowTomorrow(c)) });
    const id = ws.workspace_id!;
    const waiting = assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.2.0', scheduled: true }));
    const start = Date.parse(waiting.upgrade_window_start!);
    assert.ok(start > clock + 2 * HOUR, 'the window opens after the end of life');
    assertOk(await c.moveClock({ now: new Date(start).toISOString() }));
    const dropped = await c.waitForWorkspace(wg, id, (w) => w.desired_tg_version === undefined);
    assert.equal(dropped?.status, 'Active');
    assert.equal(dropped?.tg_version, '4.1.0');
    assert.match(
      dropped!.err_message!,
      /scheduled upgrade to 4\.2\.0 was dropped: version 4\.2\.0 reached its end of life/,
    );
    const upgrades = resultOf(await c.operations.list({ resource_id: id })).filter(
      (o) => o.kind === 'workspace.upgrade',
    );
    assert.deepEqual(upgrades, []);
    assert.deepEqual(assertOk(await c.workspaces.upgradeNextWindow()), []);
  });
});

// The local driver runs each Active workspace as a data-plane process: an upgrade restarts it
// at the new version. Process start-up is real time, so the waits poll.
describe(`workspace upgrades under the local driver (${storeName})`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ ACACIA_DRIVER: 'local', ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
  });
  after(() => server.close());

  it('restarts the data-plane process at the new version', async () => {
    const c = await server.orgClient('upgrades-local');
    const wg = await newWorkgroup(c, 'upgrades-local');
    const created = assertOk(await c.workspaces.create(wg, { name: 'local', tg_version: '4.1.0' }));
    const id = created.workspace_id!;
    const poll = { attempts: 600, intervalMs: 50 };
    await c.waitForWorkspace(wg, id, (w) => w.status === 'Active', poll);
    const store = server.running.services.store;
    const before = await findRuntime(store.db, id);
    assert.equal(JSON.parse(before!.shape).version, '4.1.0');

    assertOk(await c.workspaces.upgrade(wg, id, { desired_version: '4.2.1' }));
    const upgraded = await c.waitForWorkspace(wg, id, (w) => w.status === 'Active' && w.tg_version === '4.2.1', poll);
    assert.equal(upgraded?.tg_version, '4.2.1');
    const after = await findRuntime(store.db, id);
    assert.equal(JSON.parse(after!.shape).version, '4.2.1');
    assert.notEqual(after!.pid, before!.pid, 'a new process');
    assert.equal(isPidAlive(before!.pid), false, 'the old one stopped');
    assertOk(await c.workspaces.delete(wg, id));
  });
});
