import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AcaciaClient } from '../src/client/index.js';
import { defaultCatalog } from '../src/domain/catalog.js';
import type { EventRecord } from '../src/schemas/event.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const [graphstudio, insights] = defaultCatalog.addons.map((a) => a.addons_id) as [string, string];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function eventsOf(c: AcaciaClient, type: string): Promise<EventRecord[]> {
  return assertOk(
    await c.request<EventRecord[]>('GET', '/controller/v4/v2/events', {
      query: { format: 'json', since: 0, limit: 1000, type },
    }),
  );
}

describe(`add-on extras (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
  });
  after(() => server.close());

  it('serves the add-on metadata from the catalog', async () => {
    const client = await server.orgClient('meta-org', { role: 'viewer' });
    const meta = assertOk(await client.addons.meta());
    assert.deepEqual(
      meta.addons.map((a) => a.unique_name),
      defaultCatalog.addons.map((a) => a.unique_name),
    );
    assert.deepEqual(meta.addons[0], defaultCatalog.addons[0]);
    assert.equal(meta.max_config_value_bytes, 64 * 1024);
    assert.equal(meta.max_configs_per_addon, defaultCatalog.limits.configs_per_addon);
  });

  it('records a request for the admins, with its event, and lists them in pages', async () => {
    const admin = await server.orgClient('request-org');
    const viewer = await server.orgClient('request-org', { role: 'viewer' });
    const first = assertOk(await viewer.addons.request({ addon_name: 'Insights', message: 'for the dashboards' }));
    assert.match(first, UUID);
    const second = assertOk(await admin.addons.request({ addon_name: 'Graph Explorer' }));

    const requests = assertOk(await admin.addons.requests());
    assert.deepEqual(
      requests.map((r) => [r.id, r.addon_name, r.addons_id, r.message]),
      [
        [first, 'Insights', insights, 'for the dashboards'],
        [second, 'Graph Explorer', undefined, ''],
      ],
    );
    assert.ok(requests.every((r) => typeof r.requested_by === 'string' && r.requested_by.length > 0));
    const page = await admin.addons.requests({ limit: 1 });
    assert.deepEqual(
      assertOk(page).map((r) => r.id),
      [first],
    );
    const cursor = String(page.headers['x-next-cursor']);
    assert.deepEqual(
      assertOk(await admin.addons.requests({ limit: 1, cursor })).map((r) => r.id),
      [second],
    );

    const events = await eventsOf(admin, 'addon_request.created');
    assert.deepEqual(
      events.map((e) => e.resource_id),
      [first, second],
    );
    const data = events[0]!.data as Record<string, unknown>;
    assert.equal(data.addon_name, 'Insights');
    assert.equal('message' in data, false, 'the message is for the admins, not the stream');

    // Only org-admins read the requests; another organisation sees none of them.
    assertError(await viewer.addons.requests(), 403, 'Forbidden', 'x-api-key');
    const other = await server.orgClient('request-other-org');
    assert.deepEqual(assertOk(await other.addons.requests()), []);
  });

  it('refuses a request without a name, with a bad name or too long a message, and records nothing', async () => {
    const admin = await server.orgClient('request-bad-org');
    assertError(await admin.addons.request({} as never), 400, 'Bad-Request', 'addon_name');
    assertError(await admin.addons.request({ addon_name: '' }), 400, 'Bad-Request', 'addon_name');
    assertError(await admin.addons.request({ addon_name: 'a\u0007b' }), 400, 'Bad-Request', 'addon_name');
    assertError(await admin.addons.request({ addon_name: 'x'.repeat(65) }), 400, 'Bad-Request', 'addon_name');
    assertError(
      await admin.addons.request({ addon_name: 'Insights', message: 'm'.repeat(4097) }),
      400,
      'Bad-Request',
      'message',
    );
    assertError(await admin.addons.request({ addon_name: 'Insights', extra: 1 } as never), 400, 'Bad-Request', 'extra');
    assertError(await admin.addons.requests({ limit: 0 }), 400, 'Bad-Request', 'limit');
    assertError(await admin.addons.requests({ cursor: 'nonsense!' }), 400, 'Bad-Request', 'cursor');
    assert.deepEqual(assertOk(await admin.addons.requests()), []);
    assert.deepEqual(await eventsOf(admin, 'addon_request.created'), []);
  });

  it('gets one installed add-on by id, and 404s for an unknown one or another organisation’s', async () => {
    const admin = await server.orgClient('installed-org');
    const installed = assertOk(await admin.addons.install(graphstudio, { enable: 'true' }));
    assert.deepEqual(assertOk(await admin.addons.getInstalled(installed.id)), installed);
    const viewer = await server.orgClient('installed-org', { role: 'viewer' });
    assert.deepEqual(assertOk(await viewer.addons.getInstalled(installed.id)), installed);
    assertError(await admin.addons.getInstalled('no-such-id'), 404, 'Not-Found', 'installedAddonsID');
    const other = await server.orgClient('installed-other-org');
    assertError(await other.addons.getInstalled(installed.id), 404, 'Not-Found', 'installedAddonsID');
  });

  it('updates a configuration’s value as its creation validates it', async () => {
    const admin = await server.orgClient('config-update-org');
    const installed = assertOk(await admin.addons.install(insights, { enable: 'true' }));
    const id = assertOk(await admin.addons.createConfig(installed.id, { config_name: 'theme', config_value: 'dark' }));
    const before = assertOk(await admin.addons.listConfigs(installed.id, 'theme'))[0]!;

    const updated = assertOk(await admin.addons.updateConfig(installed.id, id, { config_value: 'light' }));
    assert.deepEqual(updated, { ...before, config_value: 'light' });
    assert.deepEqual(assertOk(await admin.addons.listConfigs(installed.id, 'theme')), [updated]);

    // 64 KiB in UTF-8: 3-byte characters pass the schema's length but not the byte rule.
    assertError(
      await admin.addons.updateConfig(installed.id, id, { config_value: '€'.repeat(30_000) }),
      400,
      'Bad-Request',
      'config_value',
    );
    assertError(
      await admin.addons.updateConfig(installed.id, id, { config_value: 'x'.repeat(64 * 1024 + 1) }),
      400,
      'Bad-Request',
      'config_value',
    );
    assertError(await admin.addons.updateConfig(installed.id, id, {} as never), 400, 'Bad-Request', 'config_value');
    assertError(
      await admin.addons.updateConfig(installed.id, id, { config_value: 'x', config_name: 'y' } as never),
      400,
      'Bad-Request',
      'config_name',
    );
    assertError(
      await admin.addons.updateConfig(installed.id, 'no-such-config', { config_value: 'x' }),
      404,
      'Not-Found',
      'configID',
    );
    assertError(
      await admin.addons.updateConfig('no-such-addon', id, { config_value: 'x' }),
      404,
      'Not-Found',
      'installedAddonsID',
    );
    const other = await server.orgClient('config-update-other-org');
    assertError(
      await other.addons.updateConfig(installed.id, id, { config_value: 'x' }),
      404,
      'Not-Found',
      'installedAddonsID',
    );
    const viewer = await server.orgClient('config-update-org', { role: 'viewer' });
    assertError(
      await viewer.addons.updateConfig(installed.id, id, { config_value: 'x' }),
      403,
      'Forbidden',
      'x-api-key',
    );
    assert.deepEqual(assertOk(await admin.addons.listConfigs(installed.id, 'theme')), [updated], 'nothing changed');
  });

  it('lists the public cloud providers apart, not as a provider id', async () => {
    const client = await server.orgClient('providers-org', { role: 'viewer' });
    const publicOnes = assertOk(await client.cloudProviders.listPublic());
    const all = assertOk(await client.cloudProviders.list());
    assert.ok(publicOnes.length > 0);
    assert.ok(publicOnes.every((p) => p.type === 'public' && p.status === 'Active' && p.org_id === undefined));
    assert.deepEqual(
      publicOnes.map((p) => p.id).sort(),
      all
        .filter((p) => p.type === 'public')
        .map((p) => p.id)
        .sort(),
    );
  });

  it('replicates an HA workspace 3 times up to TG-8 and twice from TG-16, in its record and the metadata', async () => {
    const c = await server.orgClient('ha-org', { tier: 'enterprise' });
    const wg = await newWorkgroup(c);
    const small = await activeWorkspace(c, wg, { name: 'ha-small', workspace_type_name: 'TG-8', enable_ha: true });
    assert.deepEqual([small.replicas, small.workspace_type?.ha], [3, 3]);
    const large = await activeWorkspace(c, wg, { name: 'ha-large', workspace_type_name: 'TG-16', enable_ha: true });
    assert.deepEqual([large.replicas, large.workspace_type?.ha], [2, 2]);
    const single = await activeWorkspace(c, wg, { name: 'ha-none', workspace_type_name: 'TG-8' });
    assert.deepEqual([single.replicas, single.workspace_type?.ha], [1, 1]);

    const meta = assertOk(await c.meta());
    const of = (name: string) => meta.workspaceTypes.find((t) => t.typeName === name)!;
    assert.deepEqual([of('TG-00').ha_replicas, of('TG-8').ha_replicas, of('TG-16').ha_replicas], [3, 3, 2]);
    assert.equal(of('TG-8').ha, 1, 'ha stays the replicas without high availability');
  });

  it('counts memory × the replication factor against the tier', async () => {
    // free: 768 GB, at most TG-4 (256 GB). TG-4 with HA is 3 × 256 = 768 GB: the whole quota.
    const c = await server.orgClient('ha-quota-org', { tier: 'free' });
    const wg = await newWorkgroup(c);
    const rw = await activeWorkspace(c, wg, { name: 'ha-quota', workspace_type_name: 'TG-4', enable_ha: true });
    assert.equal(rw.replicas, 3);
    const more = await c.workspaces.create(wg, {
      name: 'ha-quota-ro',
      is_rw: false,
      tg_database_id: rw.database_id!,
      workspace_type_name: 'TG-00',
    });
    assert.match(assertError(more, 403, 'Quota-Exceed', 'workspace_type_name').Reason, /784 GB/);
    assert.equal(assertOk(await c.workspaces.list(wg)).length, 1, 'nothing was created');
  });

  it('installs a solution on a read-write workspace only', async () => {
    const c = await server.orgClient('solution-org');
    const wg = await newWorkgroup(c);
    const solution = { solution_catalog_id: 'transaction-fraud', name: 'fraud', data_source_origin: 'sample' };
    const rw = await activeWorkspace(c, wg, { name: 'solution-rw', solution_install_request: solution });
    assert.equal(rw.solution_catalog_id, 'transaction-fraud');
    const refused = await c.workspaces.create(wg, {
      name: 'solution-ro',
      is_rw: false,
      tg_database_id: rw.database_id!,
      solution_install_request: solution,
    });
    assertError(refused, 400, 'Bad-Request', 'solution_install_request');
    assert.deepEqual(
      assertOk(await c.workspaces.list(wg)).map((w) => w.name),
      ['solution-rw'],
      'nothing was created',
    );
    // Without a solution the same read-only workspace is made.
    assertOk(await c.workspaces.create(wg, { name: 'solution-ro', is_rw: false, tg_database_id: rw.database_id! }));
  });
});
