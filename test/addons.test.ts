import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { defaultCatalog } from '../src/domain/catalog.js';
import { assertError, assertOk } from './helpers/assert.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';

const [graphstudio, insights, graphql, copilot] = defaultCatalog.addons.map((a) => a.addons_id) as [
  string,
  string,
  string,
  string,
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe(`add-ons (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;
  let provider: string;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    admin = server.client;
    provider = await publicProvider(admin);
  });
  after(() => server.close());

  it("serves the catalog with the organisation's install state", async () => {
    const client = await server.orgClient('catalog-org');
    const catalog = assertOk(await client.addons.catalog());
    assert.deepEqual(
      catalog.map((a) => a.unique_name),
      ['graphstudio', 'insights', 'graphql', 'copilot'],
    );
    assert.ok(catalog.every((a) => !a.installed && !a.enabled && a.installed_addons_id === undefined));
    assert.equal(catalog.find((a) => a.addons_id === copilot)!.is_free, false);

    const installed = assertOk(await client.addons.install(insights, { enable: 'true' }));
    const after = assertOk(await client.addons.catalog()).find((a) => a.addons_id === insights)!;
    assert.deepEqual([after.installed, after.enabled, after.installed_addons_id], [true, true, installed.id]);
  });

  it('installs (operation 13), disables and re-enables one installed add-on per organisation', async () => {
    const client = await server.orgClient('install-org');
    const first = assertOk(await client.addons.install(graphstudio, { enable: 'true' }));
    assert.match(first.id, UUID);
    assert.equal(first.addons_id, graphstudio);
    assert.equal(first.unique_name, 'graphstudio');
    assert.equal(first.title, 'GraphStudio');
    assert.equal(first.is_free, true);
    assert.equal(first.enabled, true);
    assert.equal(typeof first.org_id, 'string');
    assert.match(first.created_at, /Z$/);
    assert.equal(first.version_number, 1);

    assert.deepEqual(
      assertOk(await client.addons.install(graphstudio, { enable: 'true' })),
      first,
      'installing again changes nothing',
    );
    const disabled = assertOk(await client.addons.install(graphstudio, { enable: 'false' }));
    assert.deepEqual([disabled.id, disabled.enabled, disabled.version_number], [first.id, false, 2]);
    const enabled = assertOk(await client.addons.install(graphstudio, { enable: 'true' }));
    assert.deepEqual([enabled.id, enabled.enabled, enabled.version_number], [first.id, true, 3]);

    const neverEnabled = assertOk(await client.addons.install(graphql, { enable: 'false' }));
    assert.equal(neverEnabled.enabled, false);
    const installed = assertOk(await client.addons.installed());
    // Listed by created_at then id: on the manual clock both installs share one instant.
    const state = new Map(installed.map((a) => [a.addons_id, a.enabled]));
    assert.deepEqual([installed.length, state.get(graphstudio), state.get(graphql)], [2, true, false]);
  });

  it('refuses a missing or unknown enable value, an unknown add-on and non-admin keys', async () => {
    assertError(await admin.addons.install(graphstudio, {} as never), 400, 'Bad-Request', 'enable');
    assertError(await admin.addons.install(graphstudio, { enable: 'yes' } as never), 400, 'Bad-Request', 'enable');
    assertError(await admin.addons.install(graphstudio, { enable: 'TRUE' } as never), 400, 'Bad-Request', 'enable');
    assertError(await admin.addons.install('no-such-addon', { enable: 'true' }), 404, 'Not-Found', 'addonsID');
    assertError(await admin.addons.workspaces('no-such-addon'), 404, 'Not-Found', 'addonsID');
    const viewer = await server.orgClient('default', { role: 'viewer' });
    assertError(await viewer.addons.install(graphstudio, { enable: 'true' }), 403, 'Forbidden', 'x-api-key');
    assertOk(await viewer.addons.catalog());
    assertOk(await viewer.addons.installed());
  });

  it('enables an add-on on workspaces only when installed and enabled; lists those workspaces (op 14)', async () => {
    const client = await server.orgClient('workspace-org');
    const wg = assertOk(await client.workgroups.create({ cloud_provider_id: provider, name: 'wg' }));
    const refused = await client.workspaces.create(wg.workgroup_id, {
      name: 'ws-a',
      addons: [{ addons_id: copilot, enable: true }],
    });
    assertError(refused, 400, 'Bad-Request', 'addons[0].enable');

    assertOk(await client.addons.install(copilot, { enable: 'false' }));
    assertError(
      await client.workspaces.create(wg.workgroup_id, { name: 'ws-a', addons: [{ addons_id: copilot, enable: true }] }),
      400,
      'Bad-Request',
      'addons[0].enable',
    );

    assertOk(await client.addons.install(copilot, { enable: 'true' }));
    const ws = assertOk(
      await client.workspaces.create(wg.workgroup_id, {
        name: 'ws-a',
        addons: [{ addons_id: copilot, enable: true, enable_configuration: 'model=small' }],
      }),
    );
    assert.deepEqual(
      ws.addons!.map((a) => [a.addons_id, a.enable, a.unique_name]),
      [[copilot, true, 'copilot']],
    );
    const other = assertOk(
      await client.workspaces.create(wg.workgroup_id, {
        name: 'ws-b',
        addons: [{ addons_id: copilot, enable: false }],
      }),
    );

    const using = assertOk(await client.addons.workspaces(copilot));
    assert.deepEqual(
      using.map((w) => w.workspace_id),
      [ws.workspace_id],
    );
    assert.equal(using[0]!.workgroup_name, 'wg');
    assert.deepEqual(assertOk(await client.addons.workspaces(graphstudio)), []);
    assert.ok(!using.some((w) => w.workspace_id === other.workspace_id));

    const inUse = await client.addons.install(copilot, { enable: 'false' });
    assertError(inUse, 409, 'Bad-Request', 'enable');
    assert.match(JSON.stringify(inUse.body), /wg\/ws-a/);
    assert.equal(
      resultOf(await client.addons.installed()).find((a) => a.addons_id === copilot)!.enabled,
      true,
      'the refused disable changed nothing',
    );

    assertOk(
      await client.workspaces.update(wg.workgroup_id, ws.workspace_id!, {
        addons: [{ addons_id: copilot, enable: false }],
      }),
    );
    assert.deepEqual(assertOk(await client.addons.workspaces(copilot)), []);
    assert.equal(assertOk(await client.addons.install(copilot, { enable: 'false' })).enabled, false);
    assertError(
      await client.workspaces.update(wg.workgroup_id, ws.workspace_id!, {
        addons: [{ addons_id: copilot, enable: true }],
      }),
      400,
      'Bad-Request',
      'addons[0].enable',
    );
  });

  it('creates, lists by name and deletes configurations (operations 15–17)', async () => {
    const client = await server.orgClient('config-org');
    const installed = assertOk(await client.addons.install(insights, { enable: 'true' }));
    const id1 = assertOk(
      await client.addons.createConfig(installed.id, { config_name: 'theme', config_value: 'dark' }),
    );
    assert.equal(typeof id1, 'string');
    assert.match(id1, UUID);
    const id2 = assertOk(await client.addons.createConfig(installed.id, { config_name: 'theme', config_value: '' }));
    assertOk(await client.addons.createConfig(installed.id, { config_name: 'Theme', config_value: 'case matters' }));

    const themes = assertOk(await client.addons.listConfigs(installed.id, 'theme'));
    const byId = (a: string[], b: string[]) => a[0]!.localeCompare(b[0]!);
    assert.deepEqual(
      themes.map((c) => [c.id, c.config_name, c.config_value]).sort(byId),
      [
        [id1, 'theme', 'dark'],
        [id2, 'theme', ''],
      ].sort(byId),
    );
    assert.match(themes[0]!.created_at, /Z$/);
    assert.deepEqual(assertOk(await client.addons.listConfigs(installed.id, 'none-such')), []);

    const deleted = assertOk(await client.addons.deleteConfig(installed.id, id1));
    assert.equal(deleted, true);
    assert.deepEqual(
      assertOk(await client.addons.listConfigs(installed.id, 'theme')).map((c) => c.id),
      [id2],
    );
    assertError(await client.addons.deleteConfig(installed.id, id1), 404, 'Not-Found', 'configID');

    const viewer = await server.orgClient('config-org', { role: 'viewer' });
    assert.equal(assertOk(await viewer.addons.listConfigs(installed.id, 'theme')).length, 1);
    assertError(
      await viewer.addons.createConfig(installed.id, { config_name: 'x', config_value: 'y' }),
      403,
      'Forbidden',
      'x-api-key',
    );
    assertError(await viewer.addons.deleteConfig(installed.id, id2), 403, 'Forbidden', 'x-api-key');
  });

  it('refuses invalid configurations and unknown installed add-ons', async () => {
    const installed = assertOk(await admin.addons.install(graphql, { enable: 'true' }));
    const missing = await admin.addons.createConfig(installed.id, {} as never);
    assertError(missing, 400, 'Bad-Request', 'config_name');
    assertError(missing, 400, 'Bad-Request', 'config_value');
    assertError(
      await admin.addons.createConfig(installed.id, { config_name: '', config_value: 'v' }),
      400,
      'Bad-Request',
      'config_name',
    );
    assertError(
      await admin.addons.createConfig(installed.id, { config_name: 'n'.repeat(65), config_value: 'v' }),
      400,
      'Bad-Request',
      'config_name',
    );
    assertError(
      await admin.addons.createConfig(installed.id, { config_name: 'n', config_value: 5 } as never),
      400,
      'Bad-Request',
      'config_value',
    );
    assertError(
      await admin.addons.createConfig(installed.id, { config_name: 'n', config_value: 'v', extra: 1 } as never),
      400,
      'Bad-Request',
      'extra',
    );
    assertError(
      await admin.addons.createConfig(installed.id, { config_name: 'n', config_value: 'x'.repeat(64 * 1024 + 1) }),
      400,
      'Bad-Request',
      'config_value',
    );
    // Under the character limit but over 64 KiB once encoded (3 bytes per €).
    assertError(
      await admin.addons.createConfig(installed.id, { config_name: 'n', config_value: '€'.repeat(30_000) }),
      400,
      'Bad-Request',
      'config_value',
    );
    assert.match(
      assertOk(
        await admin.addons.createConfig(installed.id, { config_name: 'big', config_value: 'x'.repeat(64 * 1024) }),
      ),
      UUID,
    );

    assertError(
      await admin.addons.createConfig('no-such-install', { config_name: 'n', config_value: 'v' }),
      404,
      'Not-Found',
      'installedAddonsID',
    );
    assertError(await admin.addons.listConfigs('no-such-install', 'n'), 404, 'Not-Found', 'installedAddonsID');
    assertError(await admin.addons.deleteConfig('no-such-install', 'x'), 404, 'Not-Found', 'installedAddonsID');
    assertError(await admin.addons.deleteConfig(installed.id, 'no-such-config'), 404, 'Not-Found', 'configID');
  });

  it('keeps installed add-ons and configurations within their organisation', async () => {
    const owner = await server.orgClient('owner-org');
    const stranger = await server.orgClient('stranger-org');
    const installed = assertOk(await owner.addons.install(graphstudio, { enable: 'true' }));
    const configId = assertOk(await owner.addons.createConfig(installed.id, { config_name: 'k', config_value: 'v' }));

    assertError(await stranger.addons.listConfigs(installed.id, 'k'), 404, 'Not-Found', 'installedAddonsID');
    assertError(
      await stranger.addons.createConfig(installed.id, { config_name: 'k', config_value: 'mine' }),
      404,
      'Not-Found',
      'installedAddonsID',
    );
    assertError(await stranger.addons.deleteConfig(installed.id, configId), 404, 'Not-Found', 'installedAddonsID');
    assert.deepEqual(assertOk(await stranger.addons.installed()), []);
    assert.equal(assertOk(await stranger.addons.catalog()).find((a) => a.addons_id === graphstudio)!.installed, false);

    // The stranger's own install of the same add-on is a separate record with its own configs.
    const theirs = assertOk(await stranger.addons.install(graphstudio, { enable: 'true' }));
    assert.notEqual(theirs.id, installed.id);
    assertError(await stranger.addons.deleteConfig(theirs.id, configId), 404, 'Not-Found', 'configID');
    assert.equal(assertOk(await owner.addons.listConfigs(installed.id, 'k')).length, 1);
  });
});
