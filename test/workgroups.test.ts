import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { requestFingerprint } from '../src/domain/idempotency.js';
import { assertError, assertOk } from './helpers/assert.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';

describe(`workgroups (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;
  let provider: string;

  before(async () => {
    server = await startTestServer();
    admin = server.client;
    provider = await publicProvider(admin, 'aws', 'us-east-1');
  });
  after(() => server.close());

  it("creates a workgroup with the provider's platform and region and serves every field", async () => {
    const wg = assertOk(
      await admin.workgroups.create({
        cloud_provider_id: provider,
        name: 'analytics',
        enable_application_log: true,
        enable_encryption: true,
        shared_storage: true,
      }),
    );
    assert.match(wg.workgroup_id, /^[0-9a-f-]{36}$/);
    assert.equal(wg.name, 'analytics');
    assert.equal(wg.platform, 'aws');
    assert.equal(wg.region, 'us-east-1');
    assert.equal(wg.cloud_provider_id, provider);
    assert.equal(wg.cloud_provider_type, 'public');
    assert.equal(wg.cloud_provider_status, 'Active');
    assert.equal(wg.encryption_method, 'TMK');
    assert.equal(wg.enable_application_log, true);
    assert.equal(wg.shared_storage, true);
    assert.equal(wg.enable_allow_list, false);
    assert.equal(wg.is_current_ip_allowed, true);
    assert.equal(wg.org_name, 'default');
    assert.equal(wg.creator, 'bootstrap');
    assert.deepEqual(wg.tg_databases, []);
    assert.deepEqual(wg.workspaces, []);
    assert.equal(wg.version_number, 1);
    assert.match(wg.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const got = await admin.workgroups.get(wg.workgroup_id);
    assert.deepEqual(assertOk(got), wg);
    assert.equal(got.headers.etag, '"1"');
  });

  it('defaults optional fields: no encryption, logging off, generated name', async () => {
    const wg = assertOk(
      await admin.workgroups.create({ cloud_provider_id: provider, platform: 'aws', region: 'us-east-1' }),
    );
    assert.equal(wg.encryption_method, undefined);
    assert.equal(wg.enable_application_log, false);
    assert.equal(wg.shared_storage, false);
    assert.match(wg.name, /^workgroup-[0-9a-f]{8}$/);
  });

  it('lists workgroups with limit and cursor', async () => {
    const client = await server.orgClient('paging-org');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(assertOk(await client.workgroups.create({ cloud_provider_id: provider, name: `wg-${i}` })).workgroup_id);
    const all = assertOk(await client.workgroups.list());
    assert.deepEqual(
      all.map((w) => w.workgroup_id),
      ids,
    );

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await client.workgroups.list({ limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...assertOk(res).map((w) => w.workgroup_id));
      cursor = res.headers['x-next-cursor'] as string | undefined;
      pages++;
    } while (cursor);
    assert.deepEqual(seen, ids);
    assert.equal(pages, 3);

    assertError(await client.workgroups.list({ limit: 0 }), 400, 'Bad-Request', 'limit');
    assertError(await client.workgroups.list({ cursor: 'not-a-cursor' }), 400, 'Bad-Request', 'cursor');
  });

  it('updates name, logging and encryption, merging omitted fields', async () => {
    const wg = assertOk(
      await admin.workgroups.create({ cloud_provider_id: provider, name: 'to-update', enable_application_log: true }),
    );
    const renamed = assertOk(await admin.workgroups.update(wg.workgroup_id, { workgroup_name: 'updated' }));
    assert.equal(renamed.name, 'updated');
    assert.equal(renamed.enable_application_log, true, 'omitted fields keep their values');
    assert.equal(renamed.version_number, 2);
    const encrypted = assertOk(
      await admin.workgroups.update(wg.workgroup_id, { encryption_method: 'TMK', enable_application_log: false }),
    );
    assert.equal(encrypted.encryption_method, 'TMK');
    assert.equal(encrypted.enable_application_log, false);
    assert.equal(encrypted.name, 'updated');
    assert.equal(encrypted.version_number, 3);
    assert.deepEqual(assertOk(await admin.workgroups.get(wg.workgroup_id)), encrypted);
  });

  it('applies If-Match only when it equals version_number (412 otherwise)', async () => {
    const wg = assertOk(await admin.workgroups.create({ cloud_provider_id: provider, name: 'if-match' }));
    assertError(
      await admin.workgroups.update(wg.workgroup_id, { workgroup_name: 'stale' }, { ifMatch: 7 }),
      412,
      'Bad-Request',
      'If-Match',
    );
    assert.equal(
      assertOk(await admin.workgroups.get(wg.workgroup_id)).name,
      'if-match',
      'a refused update changes nothing',
    );
    const ok = assertOk(await admin.workgroups.update(wg.workgroup_id, { workgroup_name: 'fresh' }, { ifMatch: 1 }));
    assert.equal(ok.name, 'fresh');
    assertError(await admin.workgroups.delete(wg.workgroup_id, { ifMatch: 1 }), 412, 'Bad-Request', 'If-Match');
    assertError(
      await admin.request('PUT', `/controller/v4/v2/workgroups/${wg.workgroup_id}`, {
        body: {},
        headers: { 'if-match': 'banana' },
      }),
      400,
      'Bad-Request',
      'If-Match',
    );
  });

  it('deletes a workgroup; afterwards it is Not-Found', async () => {
    const wg = assertOk(await admin.workgroups.create({ cloud_provider_id: provider, name: 'short-lived' }));
    assert.equal(assertOk(await admin.workgroups.delete(wg.workgroup_id)), wg.workgroup_id);
    assertError(await admin.workgroups.get(wg.workgroup_id), 404, 'Not-Found', 'workgroupID');
    assertError(await admin.workgroups.delete(wg.workgroup_id), 404, 'Not-Found', 'workgroupID');
    assertError(
      await admin.workgroups.update(wg.workgroup_id, { workgroup_name: 'x' }),
      404,
      'Not-Found',
      'workgroupID',
    );
  });

  describe('rules', () => {
    it('refuses a provider that does not exist', async () => {
      assertError(
        await admin.workgroups.create({ cloud_provider_id: 'no-such-provider' }),
        404,
        'Not-Found',
        'cloud_provider_id',
      );
    });

    it('refuses a platform or region that contradicts the provider, or an unknown region', async () => {
      assertError(
        await admin.workgroups.create({ cloud_provider_id: provider, platform: 'gcp' }),
        400,
        'Bad-Request',
        'platform',
      );
      assertError(
        await admin.workgroups.create({ cloud_provider_id: provider, region: 'eu-west-1' }),
        400,
        'Bad-Request',
        'region',
      );
      assertError(
        await admin.workgroups.create({ cloud_provider_id: provider, region: 'mars-north-1' }),
        400,
        'Bad-Request',
        'region',
      );
      const res = await admin.workgroups.create({ cloud_provider_id: provider, platform: 'azure', region: 'eastus' });
      assertError(res, 400, 'Bad-Request', 'platform');
      assert.equal(res.body.ErrorDetails.length, 2, 'platform and region problems are reported together');
    });

    it('refuses a duplicate name in the organisation, case-insensitively, on create and rename', async () => {
      assertOk(await admin.workgroups.create({ cloud_provider_id: provider, name: 'Unique-Name' }));
      assertError(
        await admin.workgroups.create({ cloud_provider_id: provider, name: 'unique-name' }),
        409,
        'Bad-Request',
        'name',
      );
      const other = assertOk(await admin.workgroups.create({ cloud_provider_id: provider, name: 'other-name' }));
      assertError(
        await admin.workgroups.update(other.workgroup_id, { workgroup_name: 'UNIQUE-NAME' }),
        409,
        'Bad-Request',
        'name',
      );
      // Another organisation may use the same name.
      const client = await server.orgClient('name-org');
      assertOk(await client.workgroups.create({ cloud_provider_id: provider, name: 'unique-name' }));
    });

    it('refuses an unknown encryption method', async () => {
      const wg = assertOk(await admin.workgroups.create({ cloud_provider_id: provider, name: 'enc' }));
      const res = await admin.request('PUT', `/controller/v4/v2/workgroups/${wg.workgroup_id}`, {
        body: { encryption_method: 'AES' },
      });
      assertError(res, 400, 'Bad-Request', 'encryption_method');
    });

    it('reports every schema problem of a body together and creates nothing', async () => {
      const before = assertOk(await admin.workgroups.list()).length;
      const res = await admin.request('POST', '/controller/v4/v2/workgroups', {
        body: { name: '', platform: 'ibm', enable_encryption: 'yes', colour: 'red' },
      });
      assertError(res, 400, 'Bad-Request', 'cloud_provider_id');
      assertError(res, 400, 'Bad-Request', 'name');
      assertError(res, 400, 'Bad-Request', 'platform');
      assertError(res, 400, 'Bad-Request', 'enable_encryption');
      assertError(res, 400, 'Bad-Request', 'colour');
      assert.equal(assertOk(await admin.workgroups.list()).length, before);
    });

    it('does not coerce body types', async () => {
      const res = await admin.request('POST', '/controller/v4/v2/workgroups', {
        body: { cloud_provider_id: provider, shared_storage: 'true' },
      });
      assertError(res, 400, 'Bad-Request', 'shared_storage');
      const res2 = await admin.request('POST', '/controller/v4/v2/workgroups', { body: { cloud_provider_id: 42 } });
      assertError(res2, 400, 'Bad-Request', 'cloud_provider_id');
    });

    it('refuses names over 64 characters', async () => {
      assertError(
        await admin.workgroups.create({ cloud_provider_id: provider, name: 'x'.repeat(65) }),
        400,
        'Bad-Request',
        'name',
      );
    });
  });

  describe('organisations and roles', () => {
    it("answers Not-Found for another organisation's workgroup", async () => {
      const wg = assertOk(await admin.workgroups.create({ cloud_provider_id: provider, name: 'private-to-default' }));
      const stranger = await server.orgClient('stranger-org');
      assertError(await stranger.workgroups.get(wg.workgroup_id), 404, 'Not-Found', 'workgroupID');
      assertError(
        await stranger.workgroups.update(wg.workgroup_id, { workgroup_name: 'mine' }),
        404,
        'Not-Found',
        'workgroupID',
      );
      assertError(await stranger.workgroups.delete(wg.workgroup_id), 404, 'Not-Found', 'workgroupID');
      assert.ok(!assertOk(await stranger.workgroups.list()).some((w) => w.workgroup_id === wg.workgroup_id));
      assert.equal(assertOk(await admin.workgroups.get(wg.workgroup_id)).name, 'private-to-default');
    });

    it('lets a viewer read but not write', async () => {
      const wg = assertOk(await admin.workgroups.create({ cloud_provider_id: provider, name: 'viewed' }));
      const viewer = await server.orgClient('default', { role: 'viewer' });
      assertOk(await viewer.workgroups.get(wg.workgroup_id));
      assertOk(await viewer.workgroups.list());
      assertError(
        await viewer.workgroups.create({ cloud_provider_id: provider, name: 'by-viewer' }),
        403,
        'Forbidden',
        'x-api-key',
      );
      assertError(
        await viewer.workgroups.update(wg.workgroup_id, { workgroup_name: 'by-viewer' }),
        403,
        'Forbidden',
        'x-api-key',
      );
      assertError(await viewer.workgroups.delete(wg.workgroup_id), 403, 'Forbidden', 'x-api-key');
      assert.equal(assertOk(await admin.workgroups.get(wg.workgroup_id)).name, 'viewed');
    });

    it('lets a workgroup-admin edit its workgroups only', async () => {
      const mine = assertOk(await admin.workgroups.create({ cloud_provider_id: provider, name: 'scoped-in' }));
      const theirs = assertOk(await admin.workgroups.create({ cloud_provider_id: provider, name: 'scoped-out' }));
      const wgAdmin = await server.orgClient('default', { role: 'workgroup-admin', workgroupIds: [mine.workgroup_id] });
      assert.equal(
        assertOk(await wgAdmin.workgroups.update(mine.workgroup_id, { workgroup_name: 'scoped-in-2' })).name,
        'scoped-in-2',
      );
      assertError(
        await wgAdmin.workgroups.update(theirs.workgroup_id, { workgroup_name: 'hijack' }),
        403,
        'Forbidden',
        'x-api-key',
      );
      assertError(
        await wgAdmin.workgroups.create({ cloud_provider_id: provider, name: 'new' }),
        403,
        'Forbidden',
        'x-api-key',
      );
      assertError(await wgAdmin.workgroups.delete(mine.workgroup_id), 403, 'Forbidden', 'x-api-key');
      assertOk(await wgAdmin.workgroups.get(theirs.workgroup_id));
    });
  });

  describe('Idempotency-Key', () => {
    it('runs a POST once and replays the first response', async () => {
      const first = await admin.workgroups.create(
        { cloud_provider_id: provider, name: 'idem' },
        { idempotencyKey: 'create-idem-1' },
      );
      const created = assertOk(first);
      const replay = await admin.workgroups.create(
        { cloud_provider_id: provider, name: 'idem' },
        { idempotencyKey: 'create-idem-1' },
      );
      assert.deepEqual(assertOk(replay), created);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body.RequestID, first.body.RequestID);
      const named = assertOk(await admin.workgroups.list()).filter((w) => w.name === 'idem');
      assert.equal(named.length, 1);
    });

    it('refuses the same key with a different body', async () => {
      assertOk(
        await admin.workgroups.create(
          { cloud_provider_id: provider, name: 'idem-a' },
          { idempotencyKey: 'create-idem-2' },
        ),
      );
      const res = await admin.workgroups.create(
        { cloud_provider_id: provider, name: 'idem-b' },
        { idempotencyKey: 'create-idem-2' },
      );
      assertError(res, 400, 'Bad-Request', 'Idempotency-Key');
      assert.ok(!assertOk(await admin.workgroups.list()).some((w) => w.name === 'idem-b'));
    });

    it('keeps keys per organisation', async () => {
      const other = await server.orgClient('idem-org');
      const a = assertOk(
        await admin.workgroups.create(
          { cloud_provider_id: provider, name: 'idem-shared' },
          { idempotencyKey: 'shared-key' },
        ),
      );
      const b = assertOk(
        await other.workgroups.create(
          { cloud_provider_id: provider, name: 'idem-shared' },
          { idempotencyKey: 'shared-key' },
        ),
      );
      assert.notEqual(a.workgroup_id, b.workgroup_id);
    });

    it('expires keys after 24 hours', async () => {
      const clocked = await startTestServer({ ACACIA_CLOCK: 'manual' });
      try {
        const client = clocked.client;
        const pid = await publicProvider(client);
        const first = assertOk(
          await client.workgroups.create({ cloud_provider_id: pid, name: 'day-1' }, { idempotencyKey: 'daily' }),
        );
        assertOk(await client.moveClock({ advance_seconds: 24 * 3600 + 1 }));
        const kept = await clocked.running.services.store.db
          .selectFrom('idempotency_keys')
          .select('key')
          .where('key', '=', 'daily')
          .execute();
        assert.deepEqual(kept, [], 'the engine removes the expired response from the store');
        const again = await client.workgroups.create(
          { cloud_provider_id: pid, name: 'day-1' },
          { idempotencyKey: 'daily' },
        );
        assertError(again, 409, 'Bad-Request', 'name');
        assert.equal(resultOf(await client.workgroups.get(first.workgroup_id)).name, 'day-1');

        // A claim left by a process that died mid-request blocks retries only for a while.
        const body = { cloud_provider_id: pid, name: 'after-crash' };
        const services = clocked.running.services;
        const principal = await services.apiKeys.authenticate(clocked.bootstrapKey);
        await services.idempotency.begin(
          { apiKeyId: principal.keyId, key: 'orphaned' },
          requestFingerprint(clocked.bootstrapKey, 'POST', '/controller/v4/v2/workgroups', body),
        );
        assertError(
          await client.workgroups.create(body, { idempotencyKey: 'orphaned' }),
          409,
          'Bad-Request',
          'Idempotency-Key',
        );
        assertOk(await client.moveClock({ advance_seconds: 5 * 60 }));
        assert.equal(
          assertOk(await client.workgroups.create(body, { idempotencyKey: 'orphaned' })).name,
          'after-crash',
        );
      } finally {
        await clocked.close();
      }
    });
  });
});
