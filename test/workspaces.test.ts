import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { API_PREFIX, resultOf, type AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForDeletion, waitForStatus } from './helpers/workspaces.js';

const API = API_PREFIX;

describe(`workspaces and databases (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;

  let orgs = 0;

  before(async () => {
    server = await startTestServer({
      ACACIA_SIM_SPEED: '0',
      ACACIA_CLOCK: 'manual',
      ACACIA_BASE_DOMAIN: 'graph.example.com',
    });
  });
  // Each test has an organisation of its own, so tier quotas never couple tests.
  beforeEach(async () => {
    c = await server.orgClient(`workspaces-${++orgs}`);
    wg = await newWorkgroup(c, 'ws-rules');
  });
  after(() => server.close());

  it('serves every field of the Workspace record it fills, with defaults', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'fields' });
    assert.equal(ws.is_rw, true);
    assert.equal(ws.workspace_type?.typeName, 'TG-00');
    assert.equal(ws.tg_version, '4.2.1', 'the newest catalog version is the default');
    assert.equal(ws.database_name, 'fields-db');
    assert.equal(ws.workgroup_name, 'ws-rules');
    assert.match(ws.org_name!, /^workspaces-\d+$/);
    assert.equal(ws.region, 'us-east-1');
    assert.equal(ws.cloud_provider_name, 'aws-us-east-1');
    assert.match(ws.cloud_provider_short_id!, /^[0-9a-f]{8}$/);
    assert.equal(ws.proxy_host, `${ws.workspace_id}.us-east-1.i.graph.example.com`);
    assert.equal(ws.auto_stop_minutes, 0);
    assert.equal(ws.enable_auto_start, false);
    assert.equal(ws.enable_ha, false);
    assert.equal(ws.replicas, 1);
    assert.equal(ws.maintenance_window_time_zone, 'UTC');
    assert.equal(ws.update_strategy, 'maintenance_window');
    assert.match(ws.creator!, /^test-\d+$/);
    for (const absent of [
      'deleted_at',
      'err_message',
      'desired_tg_version',
      'enable_assistant',
      'last_maintenance',
      'snapshot_time',
      'refresh_status',
    ]) {
      assert.equal(
        (ws as Record<string, unknown>)[absent],
        undefined,
        `${absent} is absent until the service has a value`,
      );
    }
  });

  it('embeds databases and workspaces in the workgroup, with folder statistics that add up', async () => {
    const group = await newWorkgroup(c, 'embedding');
    const rw = await activeWorkspace(c, group, { name: 'embed-rw', x_test_env: 'topology=2GiB' });
    const ro = await activeWorkspace(c, group, { name: 'embed-ro', is_rw: false, tg_database_id: rw.database_id! });
    assertOk(await c.workspaces.refresh(group, ro.workspace_id!));
    await waitForStatus(c, group, ro.workspace_id!, 'Active');
    const record = assertOk(await c.workgroups.get(group));
    assert.deepEqual(
      record.workspaces.map((w) => w.name),
      ['embed-rw', 'embed-ro'],
    );
    assert.equal(record.tg_databases.length, 1);
    const db = record.tg_databases[0]!;
    // The database embedded in its workgroup is the record GET of it returns, version included.
    assert.deepEqual(resultOf(await c.databases.get(group, db.database_id!)), db);
    assert.equal(typeof db.version_number, 'number');
    assert.deepEqual(
      db.workspaces?.map((w) => w.workspace_id),
      [rw.workspace_id, ro.workspace_id],
    );
    const stats = db.folder_statistics!;
    assert.equal(
      stats.total_size,
      stats.workspaces!.reduce((s, w) => s + w.size, 0),
    );
    assert.equal(stats.total_size, 4 * 1024 ** 3);
    assert.deepEqual(resultOf(await c.workspaces.get(group, ro.workspace_id!)).folder_statistics, stats);
    // A workspace read alone is the same record as the one its workgroup embeds.
    for (const embedded of record.workspaces)
      assert.deepEqual(resultOf(await c.workspaces.get(group, embedded.workspace_id!)), embedded);
    assert.deepEqual(
      assertOk(await c.workspaces.list(group)).map((w) => w.name),
      ['embed-rw', 'embed-ro'],
    );
  });

  describe('validation', () => {
    const create = (body: unknown) => c.request('POST', `${API}/workgroups/${wg}/workspaces`, { body });
    const cases: Array<[string, unknown, number, string, string]> = [
      ['unknown size', { workspace_type_name: 'TG-3' }, 400, 'Bad-Request', 'workspace_type_name'],
      ['unknown version', { tg_version: '3.9.0' }, 400, 'Bad-Request', 'tg_version'],
      ['day of week 7', { maintenance_window_day_of_week: 7 }, 400, 'Bad-Request', 'maintenance_window_day_of_week'],
      ['hour 24', { maintenance_window_hour_of_day: 24 }, 400, 'Bad-Request', 'maintenance_window_hour_of_day'],
      [
        'interval 5 weeks',
        { maintenance_window_interval_weeks: 5 },
        400,
        'Bad-Request',
        'maintenance_window_interval_weeks',
      ],
      [
        'interval 0 weeks',
        { maintenance_window_interval_weeks: 0 },
        400,
        'Bad-Request',
        'maintenance_window_interval_weeks',
      ],
      [
        'unknown time zone',
        { maintenance_window_time_zone: 'Mars/Olympus' },
        400,
        'Bad-Request',
        'maintenance_window_time_zone',
      ],
      ['negative auto-stop', { auto_stop_minutes: -1 }, 400, 'Bad-Request', 'auto_stop_minutes'],
      ['fractional auto-stop', { auto_stop_minutes: 1.5 }, 400, 'Bad-Request', 'auto_stop_minutes'],
      ['long name', { name: 'n'.repeat(65) }, 400, 'Bad-Request', 'name'],
      ['unknown field', { colour: 'blue' }, 400, 'Bad-Request', 'colour'],
      ['string boolean', { enable_ha: 'yes' }, 400, 'Bad-Request', 'enable_ha'],
      ['unknown strategy', { update_strategy: 'whenever' }, 400, 'Bad-Request', 'update_strategy'],
      ['read-only without a database', { is_rw: false }, 400, 'Bad-Request', 'tg_database_id'],
      ['unknown database', { is_rw: false, tg_database_id: 'no-such-db' }, 404, 'Not-Found', 'tg_database_id'],
      ['unknown add-on', { addons: [{ addons_id: 'nope', enable: true }] }, 400, 'Bad-Request', 'addons[0].addons_id'],
      [
        'add-on not installed',
        { addons: [{ addons_id: 'e6203cf6-196b-4954-b15b-15e442c0c781', enable: true }] },
        400,
        'Bad-Request',
        'addons[0].enable',
      ],
      [
        'add-on ref without enable',
        { addons: [{ addons_id: 'e6203cf6-196b-4954-b15b-15e442c0c781' }] },
        400,
        'Bad-Request',
        'addons[0].enable',
      ],
      ['unknown test directive', { x_test_env: 'explode:now' }, 400, 'Bad-Request', 'x_test_env'],
      ['test directive for an unknown action', { x_test_env: 'fail:crate' }, 400, 'Bad-Request', 'x_test_env'],
      [
        'database_name for an existing database',
        { is_rw: false, tg_database_id: 'any-db', database_name: 'mine' },
        400,
        'Bad-Request',
        'database_name',
      ],
    ];
    for (const [name, body, status, type, field] of cases) {
      it(`refuses ${name}`, async () => {
        const before = assertOk(await c.workspaces.list(wg)).length;
        assertError(await create(body), status, type, field);
        assert.equal(assertOk(await c.workspaces.list(wg)).length, before, 'a refused create creates nothing');
      });
    }

    it('refuses a duplicate name in the workgroup (409) and names the database clash', async () => {
      await activeWorkspace(c, wg, { name: 'taken' });
      assertError(await c.workspaces.create(wg, { name: 'TAKEN' }), 409, 'Bad-Request', 'name');
      assertError(
        await c.workspaces.create(wg, { name: 'other', database_name: 'taken-db' }),
        409,
        'Bad-Request',
        'database_name',
      );
    });

    it('refuses update problems with the field named, all together', async () => {
      const ws = await activeWorkspace(c, wg, {
        name: 'update-rules',
        workspace_type_name: 'TG-1',
        tg_version: '4.2.0',
        x_test_env: 'topology=20GiB',
      });
      const id = ws.workspace_id!;
      const put = (body: unknown) => c.request('PUT', `${API}/workgroups/${wg}/workspaces/${id}`, { body });
      // 20 GiB > 8 GB
      assertError(await put({ workspace_type_name: 'TG-00' }), 400, 'Bad-Request', 'workspace_type_name');
      assertError(await put({ desired_tg_version: '9.9.9' }), 400, 'Bad-Request', 'desired_tg_version');
      assertError(await put({ desired_tg_version: '4.1.0' }), 400, 'Bad-Request', 'desired_tg_version');
      assertError(await put({ pause: true, workspace_type_name: 'TG-2' }), 400, 'Bad-Request', 'pause');
      assertError(await put({ auto_upgrade_state: 'sometimes' }), 400, 'Bad-Request', 'auto_upgrade_state');
      assertError(
        await put({ agent_config: { heartbeat_interval_seconds: 0 } }),
        400,
        'Bad-Request',
        'agent_config.heartbeat_interval_seconds',
      );
      const many = await put({ auto_stop_minutes: -5, workspace_name: '', enable_auto_start: 1 });
      assertError(many, 400, 'Bad-Request', 'auto_stop_minutes');
      assertError(many, 400, 'Bad-Request', 'workspace_name');
      assertError(many, 400, 'Bad-Request', 'enable_auto_start');
      assert.deepEqual(
        resultOf(await c.workspaces.get(wg, id)).version_number,
        ws.version_number,
        'refused updates change nothing',
      );
    });

    it('lets only read-write workspaces resize', async () => {
      const rw = await activeWorkspace(c, wg, { name: 'resize-rw' });
      const ro = await activeWorkspace(c, wg, { name: 'resize-ro', is_rw: false, tg_database_id: rw.database_id! });
      assertError(
        await c.workspaces.update(wg, ro.workspace_id!, { workspace_type_name: 'TG-1' }),
        400,
        'Bad-Request',
        'workspace_type_name',
      );
    });
  });

  describe('databases', () => {
    it('creates a database with its RW workspace and names it after the workspace or database_name', async () => {
      const a = await activeWorkspace(c, wg, { name: 'db-default' });
      const b = await activeWorkspace(c, wg, { name: 'db-named', database_name: 'analytics' });
      const dbs = assertOk(await c.databases.list(wg));
      assert.ok(dbs.some((d) => d.database_id === a.database_id && d.name === 'db-default-db'));
      const named = assertOk(await c.databases.get(wg, b.database_id!));
      assert.equal(named.name, 'analytics');
      assert.equal(named.tg_version, '4.2.1');
      assert.deepEqual(
        named.workspaces?.map((w) => w.workspace_id),
        [b.workspace_id],
      );
    });

    it('holds at most one RW workspace, ever; RO workspaces attach to an existing database', async () => {
      const group = await newWorkgroup(c, 'one-rw');
      const rw = await activeWorkspace(c, group, { name: 'the-rw' });
      assertError(
        await c.workspaces.create(group, { name: 'second-rw', tg_database_id: rw.database_id! }),
        400,
        'Bad-Request',
        'tg_database_id',
      );
      assertError(
        await c.workspaces.create(group, {
          name: 'ro-wrong-version',
          is_rw: false,
          tg_database_id: rw.database_id!,
          tg_version: '4.1.0',
        }),
        400,
        'Bad-Request',
        'tg_version',
      );
      const ro = await activeWorkspace(c, group, { name: 'the-ro', is_rw: false, tg_database_id: rw.database_id! });
      assert.equal(ro.is_rw, false);
      assert.equal(ro.database_id, rw.database_id);

      // The RW cannot go while a reader depends on it.
      assertError(await c.workspaces.delete(group, rw.workspace_id!), 409, 'Bad-Request', 'workspaceID');
      assertOk(await c.workspaces.delete(group, ro.workspace_id!));
      await waitForDeletion(c, group, ro.workspace_id!);
      assertOk(await c.workspaces.delete(group, rw.workspace_id!));
      await waitForDeletion(c, group, rw.workspace_id!);
      assertError(
        await c.workspaces.create(group, { name: 'new-rw', tg_database_id: rw.database_id! }),
        400,
        'Bad-Request',
        'tg_database_id',
      );
      assertOk(await c.workspaces.create(group, { name: 'late-ro', is_rw: false, tg_database_id: rw.database_id! }));
    });

    it('renames (operation 6) with If-Match, refuses duplicates and bad bodies', async () => {
      const ws = await activeWorkspace(c, wg, { name: 'rename-me' });
      await activeWorkspace(c, wg, { name: 'other', database_name: 'analytics' });
      const db = assertOk(await c.databases.get(wg, ws.database_id!));
      const renamed = assertOk(
        await c.databases.rename(
          wg,
          db.database_id!,
          { tg_database_name: 'renamed-db' },
          { ifMatch: db.version_number },
        ),
      );
      assert.equal(renamed.name, 'renamed-db');
      assert.equal(renamed.version_number, db.version_number! + 1);
      assert.equal(resultOf(await c.workspaces.get(wg, ws.workspace_id!)).database_name, 'renamed-db');
      assertError(
        await c.databases.rename(wg, db.database_id!, { tg_database_name: 'x' }, { ifMatch: db.version_number }),
        412,
        'Bad-Request',
        'If-Match',
      );
      assertError(
        await c.databases.rename(wg, db.database_id!, { tg_database_name: 'analytics' }),
        409,
        'Bad-Request',
        'tg_database_name',
      );
      assertError(
        await c.request('PUT', `${API}/workgroups/${wg}/databases/${db.database_id}`, { body: {} }),
        400,
        'Bad-Request',
        'tg_database_name',
      );
      assertError(
        await c.request('PUT', `${API}/workgroups/${wg}/databases/${db.database_id}`, {
          body: { tg_database_name: 7 },
        }),
        400,
        'Bad-Request',
        'tg_database_name',
      );
      assertError(await c.databases.rename(wg, 'missing', { tg_database_name: 'y' }), 404, 'Not-Found', 'databaseID');
    });

    it('refuses to delete a database with workspaces, then deletes it once empty', async () => {
      const group = await newWorkgroup(c, 'db-delete');
      const ws = await activeWorkspace(c, group, { name: 'holder' });
      assertError(await c.databases.delete(group, ws.database_id!), 409, 'Bad-Request', 'databaseID');
      assertError(await c.workgroups.delete(group), 409, 'Bad-Request', 'workgroupID');
      assertOk(await c.workspaces.delete(group, ws.workspace_id!));
      await waitForDeletion(c, group, ws.workspace_id!);
      assertError(await c.workgroups.delete(group), 409, 'Bad-Request', 'workgroupID');
      assertOk(await c.databases.delete(group, ws.database_id!));
      assertError(await c.databases.get(group, ws.database_id!), 404, 'Not-Found', 'databaseID');
      assertOk(await c.workgroups.delete(group));
    });
  });

  describe('permissions and isolation', () => {
    it("answers Not-Found for another organisation's workspaces and databases", async () => {
      const ws = await activeWorkspace(c, wg, { name: 'private-ws' });
      const stranger = await server.orgClient('ws-stranger');
      assertError(await stranger.workspaces.get(wg, ws.workspace_id!), 404, 'Not-Found', 'workgroupID');
      assertError(
        await stranger.workspaces.update(wg, ws.workspace_id!, { pause: true }),
        404,
        'Not-Found',
        'workgroupID',
      );
      assertError(await stranger.databases.get(wg, ws.database_id!), 404, 'Not-Found', 'workgroupID');
      const own = await newWorkgroup(stranger, 'stranger-wg');
      assertError(
        await stranger.workspaces.create(own, { is_rw: false, tg_database_id: ws.database_id! }),
        404,
        'Not-Found',
        'tg_database_id',
      );
      assertError(
        await stranger.operations.get(resultOf(await c.operations.list({ resource_id: ws.workspace_id! }))[0]!.id),
        404,
        'Not-Found',
        'id',
      );
    });

    it('lets a workspace-admin edit but not delete its workspace, and a viewer do neither', async () => {
      const ws = await activeWorkspace(c, wg, { name: 'scoped-ws' });
      const other = await activeWorkspace(c, wg, { name: 'unscoped-ws' });
      const org = `workspaces-${orgs}`;
      const wsAdmin = await server.orgClient(org, { role: 'workspace-admin', workspaceIds: [ws.workspace_id!] });
      assert.equal(
        assertOk(await wsAdmin.workspaces.update(wg, ws.workspace_id!, { auto_stop_minutes: 10 })).auto_stop_minutes,
        10,
      );
      assertOk(await wsAdmin.workspaces.pause(wg, ws.workspace_id!));
      assertError(await wsAdmin.workspaces.delete(wg, ws.workspace_id!), 403, 'Forbidden', 'x-api-key');
      assertError(
        await wsAdmin.workspaces.update(wg, other.workspace_id!, { auto_stop_minutes: 10 }),
        403,
        'Forbidden',
        'x-api-key',
      );
      assertError(await wsAdmin.workspaces.create(wg, { name: 'nope' }), 403, 'Forbidden', 'x-api-key');
      const viewer = await server.orgClient(org, { role: 'viewer' });
      assertOk(await viewer.workspaces.get(wg, ws.workspace_id!));
      assertError(
        await viewer.workspaces.update(wg, ws.workspace_id!, { auto_stop_minutes: 1 }),
        403,
        'Forbidden',
        'x-api-key',
      );
      assertError(
        await viewer.databases.rename(wg, ws.database_id!, { tg_database_name: 'v' }),
        403,
        'Forbidden',
        'x-api-key',
      );
    });

    it('lets a workgroup-admin create and delete workspaces in its workgroups only', async () => {
      const group = await newWorkgroup(c, 'wg-admin-scope');
      const wgAdmin = await server.orgClient(`workspaces-${orgs}`, { role: 'workgroup-admin', workgroupIds: [group] });
      const ws = await activeWorkspace(wgAdmin, group, { name: 'by-wg-admin' });
      assertError(await wgAdmin.workspaces.create(wg, { name: 'outside' }), 403, 'Forbidden', 'x-api-key');
      assertOk(await wgAdmin.workspaces.delete(group, ws.workspace_id!));
    });
  });
});
