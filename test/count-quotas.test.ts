import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { resultOf, type AcaciaClient, type ApiResponse } from '../src/client/index.js';
import { defaultCatalog } from '../src/domain/catalog.js';
import { assertError, assertOk } from './helpers/assert.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForDeletion, waitForStatus } from './helpers/workspaces.js';

const LIMIT = 3;
/** More requests than the limit, all at once: the count must hold under concurrency. */
const TRIES = 8;
const insights = defaultCatalog.addons.find((a) => a.unique_name === 'insights')!.addons_id;
const password = 'Graph-Secret-42';
const ARN = 'arn:aws:iam::123456789012:role/acacia-limits';

/** Sends `TRIES` creates at once; exactly `LIMIT` succeed and the rest are Quota-Exceed naming `field`. */
async function fillConcurrently(create: (i: number) => Promise<ApiResponse<unknown>>, field: string): Promise<void> {
  const results = await Promise.all(Array.from({ length: TRIES }, (_, i) => create(i)));
  const ok = results.filter((r) => r.status === 200);
  assert.equal(ok.length, LIMIT, `statuses: ${results.map((r) => r.status).join(', ')}`);
  for (const refused of results.filter((r) => r.status !== 200)) assertError(refused, 403, 'Quota-Exceed', field);
}

describe(`count quotas (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let dir: string;
  let orgs = 0;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'acacia-limits-'));
    const config = path.join(dir, 'limits.json');
    writeFileSync(
      config,
      JSON.stringify({
        limits: {
          workgroups_per_organisation: LIMIT,
          databases_per_workgroup: LIMIT,
          cloud_providers_per_organisation: LIMIT,
          allow_list_entries_per_workgroup: LIMIT,
          configs_per_addon: LIMIT,
          schedules_per_workspace: LIMIT,
          api_keys_per_organisation: LIMIT,
          db_users_per_workspace: LIMIT,
          webhooks_per_organisation: LIMIT,
        },
      }),
    );
    server = await startTestServer({ ACACIA_CONFIG: config, ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
  });
  beforeEach(async () => {
    c = await server.orgClient(`count-quotas-${++orgs}`);
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('workgroups per organisation; a deleted workgroup frees its place', async () => {
    const provider = await publicProvider(c);
    await fillConcurrently((i) => c.workgroups.create({ cloud_provider_id: provider, name: `wg-${i}` }), 'name');
    const workgroups = resultOf(await c.workgroups.list());
    assert.equal(workgroups.length, LIMIT);
    assertOk(await c.workgroups.delete(workgroups[0]!.workgroup_id));
    assertOk(await c.workgroups.create({ cloud_provider_id: provider, name: 'again' }));
    // The limit is per organisation.
    const other = await server.orgClient(`count-quotas-${++orgs}`);
    assertOk(await other.workgroups.create({ cloud_provider_id: provider, name: 'wg-0' }));
  });

  it('databases per workgroup, those of deleted workspaces included; a deleted database frees its place', async () => {
    const wg = await newWorkgroup(c);
    await fillConcurrently((i) => c.workspaces.create(wg, { name: `rw-${i}` }), 'workgroupID');
    const [gone] = resultOf(await c.workspaces.list(wg));
    await waitForStatus(c, wg, gone!.workspace_id!, 'Active');
    assertOk(await c.workspaces.delete(wg, gone!.workspace_id!));
    await waitForDeletion(c, wg, gone!.workspace_id!);
    assert.equal(resultOf(await c.databases.list(wg)).length, LIMIT, 'the database outlives its workspace');
    assertError(await c.workspaces.create(wg, { name: 'late' }), 403, 'Quota-Exceed', 'workgroupID');
    // A read-only workspace attaches to an existing database: it is not refused.
    assertOk(await c.workspaces.create(wg, { name: 'reader', is_rw: false, tg_database_id: gone!.database_id! }));
    const freed = resultOf(await c.workspaces.list(wg)).find((w) => w.name === 'reader')!;
    await waitForStatus(c, wg, freed.workspace_id!, 'Active');
    assertOk(await c.workspaces.delete(wg, freed.workspace_id!));
    await waitForDeletion(c, wg, freed.workspace_id!);
    assertOk(await c.databases.delete(wg, gone!.database_id!));
    assertOk(await c.workspaces.create(wg, { name: 'late' }));
  });

  it('cloud providers per organisation; a deleted one frees its place', async () => {
    const register = (name: string) =>
      c.cloudProviders.create({ name, platform: 'aws', region: 'us-east-1', role_arn: ARN });
    await fillConcurrently((i) => register(`byoc-${i}`), 'name');
    const own = resultOf(await c.cloudProviders.list()).filter((p) => p.type === 'private');
    assert.equal(own.length, LIMIT);
    const first = await c.waitForCloudProvider(own[0]!.id, (p) => p.status === 'Active');
    assertOk(await c.cloudProviders.delete(first!.id));
    assertOk(await register('again'));
  });

  it('allow-list entries per workgroup; an expired or deleted entry frees its place', async () => {
    const wg = await newWorkgroup(c);
    await fillConcurrently((i) => c.allowList.create(wg, { cidr: `10.0.${i}.0/24` }), 'workgroupID');
    const entries = resultOf(await c.allowList.list(wg));
    assert.equal(entries.length, LIMIT);
    assertOk(await c.allowList.delete(wg, entries[0]!.id));
    assertOk(
      await c.allowList.create(wg, {
        cidr: '10.1.0.0/24',
        expires_at: new Date(server.running.services.clock.now() + 3_600_000).toISOString(),
      }),
    );
    assertError(await c.allowList.create(wg, { cidr: '10.2.0.0/24' }), 403, 'Quota-Exceed', 'workgroupID');
    assertOk(await c.moveClock({ advance_seconds: 3601 }));
    assertOk(await c.allowList.create(wg, { cidr: '10.2.0.0/24' }));
    // The limit is per workgroup.
    assertOk(await c.allowList.create(await newWorkgroup(c), { cidr: '10.0.0.0/24' }));
  });

  it('configs per installed add-on', async () => {
    const installed = assertOk(await c.addons.install(insights, { enable: 'true' }));
    await fillConcurrently(
      (i) => c.addons.createConfig(installed.id, { config_name: `setting-${i}`, config_value: 'x' }),
      'installedAddonsID',
    );
    const [first] = resultOf(await c.addons.listConfigs(installed.id, 'setting-0')).concat(
      resultOf(await c.addons.listConfigs(installed.id, 'setting-1')),
      resultOf(await c.addons.listConfigs(installed.id, 'setting-2')),
    );
    assertOk(await c.addons.deleteConfig(installed.id, first!.id));
    assertOk(await c.addons.createConfig(installed.id, { config_name: 'again', config_value: 'x' }));
  });

  it('schedules and database users per workspace', async () => {
    const wg = await newWorkgroup(c);
    const ws = (await activeWorkspace(c, wg, { name: 'counted' })).workspace_id!;
    await fillConcurrently(
      (i) =>
        c.schedules.create(wg, ws, {
          workspace_id: ws,
          repeat: 'daily',
          time: `0${i}:00`,
          timezone: 'UTC',
          action: 'pause',
        }),
      'workspaceID',
    );
    const schedules = resultOf(await c.schedules.list(wg, ws));
    assert.equal(schedules.length, LIMIT);
    assertOk(await c.schedules.delete(wg, ws, schedules[0]!.id));
    assertOk(
      await c.schedules.create(wg, ws, {
        workspace_id: ws,
        repeat: 'daily',
        time: '12:00',
        timezone: 'UTC',
        action: 'resume',
      }),
    );

    await fillConcurrently((i) => c.dbUsers.create(wg, ws, { username: `user${i}`, password }), 'workspaceID');
    const users = resultOf(await c.dbUsers.list(wg, ws));
    assert.equal(users.length, LIMIT);
    assertOk(await c.dbUsers.delete(wg, ws, { username: users[0]!.username }));
    assertOk(await c.dbUsers.create(wg, ws, { username: 'late', password }));
  });

  it('API keys per organisation, the creating key included; a revoked key frees its place', async () => {
    // The organisation already has the key `c` uses.
    const results = await Promise.all(
      Array.from({ length: TRIES }, (_, i) => c.apiKeys.create({ key_name: `k${i}`, role: 'viewer' })),
    );
    assert.equal(results.filter((r) => r.status === 200).length, LIMIT - 1);
    for (const refused of results.filter((r) => r.status !== 200))
      assertError(refused, 403, 'Quota-Exceed', 'key_name');
    const made = resultOf(await c.apiKeys.list()).find((k) => k.key_name.startsWith('k'))!;
    assertOk(await c.apiKeys.revoke(made.key_name));
    assertOk(await c.apiKeys.create({ key_name: 'replacement', role: 'viewer' }));
  });

  it('serves the limits in GET /workspaces/meta', async () => {
    assert.deepEqual(assertOk(await c.meta()).count_limits, {
      workgroups_per_organisation: LIMIT,
      databases_per_workgroup: LIMIT,
      cloud_providers_per_organisation: LIMIT,
      allow_list_entries_per_workgroup: LIMIT,
      configs_per_addon: LIMIT,
      schedules_per_workspace: LIMIT,
      api_keys_per_organisation: LIMIT,
      db_users_per_workspace: LIMIT,
      webhooks_per_organisation: LIMIT,
    });
  });
});

describe(`count quotas: the defaults (${storeName})`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('applies the documented defaults', async () => {
    assert.deepEqual(assertOk(await server.client.meta()).count_limits, {
      workgroups_per_organisation: 100,
      databases_per_workgroup: 50,
      cloud_providers_per_organisation: 20,
      allow_list_entries_per_workgroup: 200,
      configs_per_addon: 100,
      schedules_per_workspace: 50,
      api_keys_per_organisation: 500,
      db_users_per_workspace: 100,
      webhooks_per_organisation: 20,
    });
    const c = await server.orgClient('default-limits');
    for (let i = 1; i < 100; i++) await newWorkgroup(c);
    const wg = await newWorkgroup(c);
    const provider = await publicProvider(c);
    assertError(await c.workgroups.create({ cloud_provider_id: provider }), 403, 'Quota-Exceed', 'name');
    for (let i = 0; i < 200; i++) assertOk(await c.allowList.create(wg, { cidr: `10.${i >> 8}.${i & 255}.0/24` }));
    assertError(await c.allowList.create(wg, { cidr: '192.168.0.0/24' }), 403, 'Quota-Exceed', 'workgroupID');
  });
});
