import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient, type CloudProviderRecord } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';

const ARN = 'arn:aws:iam::123456789012:role/acacia/provisioner';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe(`cloud providers (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;
  let seq = 0;

  /** Registers an aws provider in us-east-1 with a unique name. */
  const register = (client: AcaciaClient, extra: Record<string, unknown> = {}) =>
    client.cloudProviders.create({
      name: `byoc-${++seq}`,
      platform: 'aws',
      region: 'us-east-1',
      role_arn: ARN,
      ...extra,
    });
  const waitFor = (client: AcaciaClient, id: string, status: string) =>
    client.waitForCloudProvider(id, (p) => p.status === status);
  async function activeProvider(
    client: AcaciaClient,
    extra: Record<string, unknown> = {},
  ): Promise<CloudProviderRecord> {
    const created = assertOk(await register(client, extra));
    const active = await waitFor(client, created.id, 'Active');
    assert.equal(active.status, 'Active', JSON.stringify(active));
    return active;
  }

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    admin = server.client;
  });
  after(() => server.close());

  it('registers a provider as Pending, then the provisioner makes it Active and fills its infrastructure', async () => {
    const created = assertOk(
      await register(admin, {
        name: 'prod-account',
        options: { account_id: '123456789012', secure_connection: true },
        role_external_id: 'ext-1',
      }),
    );
    assert.match(created.id, UUID);
    assert.equal(created.short_id, created.id.replace(/-/g, '').slice(-8));
    assert.equal(created.status, 'Pending');
    assert.equal(created.type, 'private');
    assert.equal(created.name, 'prod-account');
    assert.equal(created.role_arn, ARN);
    assert.equal(created.role_external_id, 'ext-1');
    assert.deepEqual(created.options, { account_id: '123456789012', secure_connection: true });
    assert.equal(created.created_by, 'bootstrap');
    assert.equal(created.org_id !== undefined, true);
    assert.equal(created.vpc_id, undefined, 'nothing is invented before provisioning');
    assert.equal(created.api_tokens, undefined);
    assert.equal(created.version_number, 1);

    const active = await waitFor(admin, created.id, 'Active');
    assert.equal(active.status, 'Active');
    assert.match(active.vpc_id!, /^vpc-[0-9a-f]{17}$/);
    assert.match(active.security_group_id!, /^sg-[0-9a-f]{17}$/);
    assert.deepEqual(active.availability_zones, ['us-east-1a', 'us-east-1b', 'us-east-1c']);
    assert.equal(active.subnet_id!.length, 3);
    assert.equal(active.cluster_id, `acacia-${created.short_id}`);
    assert.equal(active.vpc_owned_by_tg, true);
    assert.deepEqual(active.node_group_config!.ng_system, { min_size: 1, max_size: 3, overprovisioning_factor: 0 });
    assert.match(active.component_versions!, /kubernetes=/);
    assert.match(active.endpoint_service_name!, /^com\.amazonaws\.vpce\.us-east-1\.vpce-svc-/);
    assert.equal(active.last_error, undefined);

    const plain = await activeProvider(admin);
    assert.equal(plain.endpoint_service_name, undefined, 'only a secure connection gets an endpoint service');

    const listed = assertOk(await admin.cloudProviders.list());
    assert.ok(listed.some((p) => p.id === created.id && p.type === 'private'));
    const ops = assertOk(await admin.operations.list({ resource_id: created.id }));
    assert.deepEqual(
      ops.map((o) => [o.kind, o.state, o.resource_type]),
      [['cloud_provider.provision', 'succeeded', 'cloud_provider']],
    );
  });

  it('shows Provisioning while the provisioner works, on the manual clock', async () => {
    const created = assertOk(await register(admin, { x_test_env: 'slow:provision=60s' }));
    const provisioning = await waitFor(admin, created.id, 'Provisioning');
    assert.equal(provisioning.status, 'Provisioning');
    assertOk(await admin.moveClock({ advance_seconds: 59 }));
    assert.equal(resultOf(await admin.cloudProviders.get(created.id)).status, 'Provisioning');
    assertOk(await admin.moveClock({ advance_seconds: 1 }));
    assert.equal((await waitFor(admin, created.id, 'Active')).status, 'Active');
  });

  it('fails with last_error when provisioning fails (x_test_env fail:provision)', async () => {
    const created = assertOk(await register(admin, { x_test_env: 'fail:provision' }));
    const failed = await waitFor(admin, created.id, 'Failed');
    assert.equal(failed.status, 'Failed');
    assert.match(failed.last_error!, /simulated provision failure/);
    assert.equal(failed.vpc_id, undefined);
    const wg = await admin.workgroups.create({ cloud_provider_id: created.id });
    assertError(wg, 409, 'Bad-Request', 'cloud_provider_id');
    assertError(await admin.cloudProviders.upgrade(created.id, {}), 409, 'Bad-Request', 'status');
    assert.equal(
      assertOk(await admin.cloudProviders.delete(created.id)).id,
      created.id,
      'a failed provider can be deleted',
    );
  });

  it('refuses invalid registrations, naming every field', async () => {
    const missing = await admin.cloudProviders.create({} as never);
    for (const field of ['platform', 'region', 'role_arn']) assertError(missing, 400, 'Bad-Request', field);
    assertError(await register(admin, { role_arn: 'arn:aws:iam::1234:role/x' }), 400, 'Bad-Request', 'role_arn');
    assertError(
      await register(admin, { role_arn: 'arn:aws:iam::123456789012:user/x' }),
      400,
      'Bad-Request',
      'role_arn',
    );
    assertError(
      await register(admin, { options: { account_id: '999999999999' } }),
      400,
      'Bad-Request',
      'options.account_id',
    );
    assertError(await register(admin, { region: 'mars-north-1' }), 400, 'Bad-Request', 'region');
    assertError(await register(admin, { platform: 'gcp', region: 'us-east-1' }), 400, 'Bad-Request', 'region');
    assertError(await register(admin, { platform: 'ibm' }), 400, 'Bad-Request', 'platform');
    assertError(await register(admin, { type: 'public' }), 400, 'Bad-Request', 'type');
    assertError(await register(admin, { type: 'shared' }), 400, 'Bad-Request', 'type');
    assertError(await register(admin, { name: '' }), 400, 'Bad-Request', 'name');
    assertError(await register(admin, { name: 'x'.repeat(65) }), 400, 'Bad-Request', 'name');
    assertError(await register(admin, { vpc_id: 'vpc-1' }), 400, 'Bad-Request', 'vpc_id');
    assertError(
      await register(admin, { options: { secure_connection: 'yes' } }),
      400,
      'Bad-Request',
      'options.secure_connection',
    );
    assertError(await register(admin, { x_test_env: 'explode:now' }), 400, 'Bad-Request', 'x_test_env');
    assertError(await register(admin, { x_test_env: 'fail:create' }), 400, 'Bad-Request', 'x_test_env');

    const gcp = assertOk(
      await admin.cloudProviders.create({
        name: 'gcp-one',
        platform: 'gcp',
        region: 'us-central1',
        role_arn: 'acacia@proj.iam.gserviceaccount.com',
      }),
    );
    assert.equal(gcp.platform, 'gcp');
    assertError(
      await admin.cloudProviders.create({ name: 'GCP-ONE', platform: 'aws', region: 'us-east-1', role_arn: ARN }),
      409,
      'Bad-Request',
      'name',
    );
  });

  it('is for enterprise org-admins: other tiers get API-Disabled, other roles Forbidden', async () => {
    const premium = await server.orgClient('premium-org', { tier: 'premium' });
    assertError(await register(premium), 403, 'API-Disabled', 'tier');
    assertError(
      await premium.cloudProviders.validate({ platform: 'aws', region: 'us-east-1', role_arn: ARN }),
      403,
      'API-Disabled',
      'tier',
    );
    const someProvider = await publicProvider(premium);
    assertError(await premium.cloudProviders.update(someProvider, { name: 'x' }), 403, 'API-Disabled', 'tier');
    assertError(await premium.cloudProviders.upgrade(someProvider, {}), 403, 'API-Disabled', 'tier');
    assertError(await premium.cloudProviders.delete(someProvider), 403, 'API-Disabled', 'tier');
    assert.ok(
      assertOk(await premium.cloudProviders.list()).every((p) => p.type === 'public'),
      'reads still work',
    );

    const viewer = await server.orgClient('default', { role: 'viewer' });
    assertError(await register(viewer), 403, 'Forbidden', 'x-api-key');
    const own = assertOk(await register(admin));
    assert.equal(assertOk(await viewer.cloudProviders.get(own.id)).id, own.id, 'every role reads');
  });

  it('validates a registration without creating anything', async () => {
    const before = assertOk(await admin.cloudProviders.list()).length;
    const message = assertOk(
      await admin.cloudProviders.validate({
        platform: 'aws',
        region: 'eu-west-1',
        role_arn: ARN,
        account_id: '123456789012',
        secure_connection: true,
      }),
    );
    assert.equal(typeof message, 'string');
    assert.match(message, /validation succeeded: role provisioner can be assumed in account 123456789012/);
    assert.equal(assertOk(await admin.cloudProviders.list()).length, before);

    assertError(
      await admin.cloudProviders.validate({
        platform: 'aws',
        region: 'eu-west-1',
        role_arn: 'arn:aws:iam::123456789012:role/deny-all',
      }),
      400,
      'Bad-Request',
      'role_arn',
    );
    assertError(
      await admin.cloudProviders.validate({
        platform: 'aws',
        region: 'eu-west-1',
        role_arn: ARN,
        x_test_env: 'fail:validate',
      }),
      400,
      'Bad-Request',
      'role_arn',
    );
    assertError(
      await admin.cloudProviders.validate({
        platform: 'aws',
        region: 'eu-west-1',
        role_arn: ARN,
        account_id: '000000000000',
      }),
      400,
      'Bad-Request',
      'account_id',
    );
    assertError(
      await admin.cloudProviders.validate({ platform: 'aws', region: 'nowhere', role_arn: ARN }),
      400,
      'Bad-Request',
      'region',
    );
    const empty = await admin.cloudProviders.validate({} as never);
    for (const field of ['platform', 'region', 'role_arn']) assertError(empty, 400, 'Bad-Request', field);
  });

  it('renames and records a version (operation 20), honouring If-Match', async () => {
    const p = await activeProvider(admin);
    const updated = assertOk(
      await admin.cloudProviders.update(
        p.id,
        { name: 'renamed-account', version: '1.4.0' },
        { ifMatch: p.version_number },
      ),
    );
    assert.equal(updated.name, 'renamed-account');
    assert.equal(updated.version, '1.4.0');
    assert.equal(updated.version_number, p.version_number + 1);
    assert.equal(updated.vpc_id, p.vpc_id, 'omitted fields keep their values');

    assertError(
      await admin.cloudProviders.update(p.id, { name: 'again' }, { ifMatch: p.version_number }),
      412,
      'Bad-Request',
      'If-Match',
    );
    assertError(await admin.cloudProviders.update(p.id, { version: 'latest' }), 400, 'Bad-Request', 'version');
    assertError(await admin.cloudProviders.update(p.id, { name: '' }), 400, 'Bad-Request', 'name');
    assertError(
      await admin.cloudProviders.update(p.id, { region: 'eu-west-1' } as never),
      400,
      'Bad-Request',
      'region',
    );
    const other = await activeProvider(admin);
    assertError(await admin.cloudProviders.update(other.id, { name: 'Renamed-Account' }), 409, 'Bad-Request', 'name');
    assertError(
      await admin.cloudProviders.update('no-such-provider', { name: 'x' }),
      404,
      'Not-Found',
      'cloudProviderID',
    );

    const pub = await publicProvider(admin);
    assertError(await admin.cloudProviders.update(pub, { name: 'mine' }), 403, 'Forbidden', 'cloudProviderID');
    assertError(await admin.cloudProviders.upgrade(pub, {}), 403, 'Forbidden', 'cloudProviderID');
    assertError(await admin.cloudProviders.delete(pub), 403, 'Forbidden', 'cloudProviderID');
  });

  it('upgrades through Upgrading to Active (operation 21), merging node groups, log types and components', async () => {
    const p = await activeProvider(admin, { x_test_env: 'slow:upgrade=30s' });
    const operationId = assertOk(
      await admin.cloudProviders.upgrade(p.id, {
        cluster_enabled_log_types: ['api', 'audit'],
        components: [
          { name: 'operator', version: '1.3.0' },
          { name: 'gateway', version: '0.9.1' },
        ],
        node_group_config: {
          ng_16: { max_size: 10 },
          ng_64: { min_size: 1, max_size: 2, overprovisioning_factor: 1 },
          prefetch_image_list: ['tigergraph:4.2.1'],
        },
      }),
    );
    assert.equal(typeof operationId, 'string');
    assert.match(operationId, UUID);
    assert.equal(resultOf(await admin.cloudProviders.get(p.id)).status, 'Upgrading');
    assertError(await admin.cloudProviders.upgrade(p.id, {}), 409, 'Bad-Request', 'status');
    assertError(await admin.cloudProviders.delete(p.id), 409, 'Bad-Request', 'status');

    assertOk(await admin.moveClock({ advance_seconds: 30 }));
    const done = await waitFor(admin, p.id, 'Active');
    assert.equal(done.status, 'Active');
    assert.deepEqual(done.cluster_enabled_log_types, ['api', 'audit']);
    assert.deepEqual(done.node_group_config!.ng_16, { min_size: 0, max_size: 10, overprovisioning_factor: 0 });
    assert.deepEqual(done.node_group_config!.ng_64, { min_size: 1, max_size: 2, overprovisioning_factor: 1 });
    assert.deepEqual(done.node_group_config!.ng_system, p.node_group_config!.ng_system);
    assert.deepEqual(done.node_group_config!.prefetch_image_list, ['tigergraph:4.2.1']);
    assert.match(done.component_versions!, /gateway=0\.9\.1/);
    assert.match(done.component_versions!, /operator=1\.3\.0/);
    assert.equal(assertOk(await admin.operations.get(operationId)).state, 'succeeded');
  });

  it('refuses invalid upgrades, and a failing upgrade leaves the provider Failed with last_error', async () => {
    const p = await activeProvider(admin, { x_test_env: 'fail:upgrade' });
    assertError(
      await admin.cloudProviders.upgrade(p.id, { node_group_config: { ng_16: { min_size: 5 } } }),
      400,
      'Bad-Request',
      'node_group_config.ng_16.min_size',
    );
    assertError(
      await admin.cloudProviders.upgrade(p.id, { node_group_config: { ng_32: { min_size: -1 } } }),
      400,
      'Bad-Request',
      'node_group_config.ng_32.min_size',
    );
    assertError(
      await admin.cloudProviders.upgrade(p.id, { node_group_config: { ng_32: { overprovisioning_factor: -1 } } }),
      400,
      'Bad-Request',
      'node_group_config.ng_32.overprovisioning_factor',
    );
    assertError(
      await admin.cloudProviders.upgrade(p.id, { node_group_config: { ng_8: { min_size: 1 } } } as never),
      400,
      'Bad-Request',
      'node_group_config.ng_8',
    );
    assertError(
      await admin.cloudProviders.upgrade(p.id, { node_group_config: { prefetch_image_list: [1] } } as never),
      400,
      'Bad-Request',
      'node_group_config.prefetch_image_list[0]',
    );
    assertError(
      await admin.cloudProviders.upgrade(p.id, { cluster_enabled_log_types: ['api', 'kernel'] } as never),
      400,
      'Bad-Request',
      'cluster_enabled_log_types[1]',
    );
    assertError(
      await admin.cloudProviders.upgrade(p.id, { components: [{ name: 'x' }] } as never),
      400,
      'Bad-Request',
      'components[0].version',
    );
    assert.equal(
      resultOf(await admin.cloudProviders.get(p.id)).version_number,
      p.version_number,
      'refused upgrades change nothing',
    );

    assertOk(await admin.cloudProviders.upgrade(p.id, { cluster_enabled_log_types: ['scheduler'] }));
    const failed = await waitFor(admin, p.id, 'Failed');
    assert.equal(failed.status, 'Failed');
    assert.match(failed.last_error!, /simulated upgrade failure/);
    assert.equal(failed.cluster_enabled_log_types, undefined);
  });

  it('hosts workgroups of its own organisation only, and is not deleted while they use it', async () => {
    const p = await activeProvider(admin);
    const wg = assertOk(await admin.workgroups.create({ cloud_provider_id: p.id, name: `on-${p.short_id}` }));
    assert.equal(wg.cloud_provider_type, 'private');
    assert.equal(wg.platform, 'aws');
    assert.equal(wg.region, 'us-east-1');

    const stranger = await server.orgClient('stranger-org');
    assertError(await stranger.cloudProviders.get(p.id), 404, 'Not-Found', 'cloudProviderID');
    assertError(await stranger.cloudProviders.update(p.id, { name: 'mine' }), 404, 'Not-Found', 'cloudProviderID');
    assertError(await stranger.cloudProviders.upgrade(p.id, {}), 404, 'Not-Found', 'cloudProviderID');
    assertError(await stranger.cloudProviders.delete(p.id), 404, 'Not-Found', 'cloudProviderID');
    assertError(await stranger.workgroups.create({ cloud_provider_id: p.id }), 404, 'Not-Found', 'cloud_provider_id');
    assert.ok(!assertOk(await stranger.cloudProviders.list()).some((x) => x.id === p.id));

    const refused = await admin.cloudProviders.delete(p.id);
    assertError(refused, 409, 'Bad-Request', 'cloudProviderID');
    assert.match(JSON.stringify(refused.body), new RegExp(`on-${p.short_id}`));

    assertOk(await admin.workgroups.delete(wg.workgroup_id));
    const deleted = assertOk(await admin.cloudProviders.delete(p.id));
    assert.equal(deleted.id, p.id);
    assertError(await admin.cloudProviders.get(p.id), 404, 'Not-Found', 'cloudProviderID');
  });

  it('refuses workgroups on a provider that is not Active yet', async () => {
    const p = assertOk(await register(admin, { x_test_env: 'slow:provision=5m' }));
    assertError(await admin.workgroups.create({ cloud_provider_id: p.id }), 409, 'Bad-Request', 'cloud_provider_id');
    assertError(await admin.cloudProviders.delete(p.id), 409, 'Bad-Request', 'status');
    assertOk(await admin.moveClock({ advance_seconds: 300 }));
    await waitFor(admin, p.id, 'Active');
    assertOk(await admin.workgroups.create({ cloud_provider_id: p.id }));
  });
});
