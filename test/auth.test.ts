import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { newWorkgroup } from './helpers/workspaces.js';

describe(`authentication and API keys (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual' });
  });
  after(() => server.close());

  it('answers 401 for a missing or unknown key', async () => {
    const anonymous = server.client.withKey(undefined);
    assertError(await anonymous.workgroups.list(), 401, 'Unauthorized', 'x-api-key');
    assertError(
      await server.client.withKey('acacia_sk_not-a-real-key-at-all').workgroups.list(),
      401,
      'Unauthorized',
      'x-api-key',
    );
    // Auth is checked before anything else, whatever the route or body.
    assertError(
      await anonymous.request('POST', '/controller/v4/v2/workgroups', { body: '{broken' }),
      401,
      'Unauthorized',
      'x-api-key',
    );
  });

  it('creates a key once, lists it redacted, and authenticates with it', async () => {
    const created = assertOk(
      await server.client.apiKeys.create({ key_name: 'ci-reader', role: 'viewer', description: 'CI pipeline' }),
    );
    assert.match(created.plaintext_key!, /^acacia_sk_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.role, 'viewer');
    assert.ok(created.redacted_key.startsWith('acacia_sk_'));
    assert.ok(!created.redacted_key.includes(created.plaintext_key!.slice(14, 30)));
    const listed = assertOk(await server.client.apiKeys.list()).find((k) => k.key_name === 'ci-reader');
    assert.ok(listed);
    assert.equal(listed.plaintext_key, undefined, 'the plaintext is shown only at creation');
    assert.equal(listed.redacted_key, created.redacted_key);
    assertOk(await server.client.withKey(created.plaintext_key!).workgroups.list());
  });

  it('answers 401 for a revoked key, at once', async () => {
    const key = assertOk(
      await server.client.apiKeys.create({ key_name: 'to-revoke', role: 'org-admin' }),
    ).plaintext_key!;
    const client = server.client.withKey(key);
    assertOk(await client.workgroups.list());
    assertOk(await server.client.apiKeys.revoke('to-revoke'));
    const res = await client.workgroups.list();
    assert.match(assertError(res, 401, 'Unauthorized', 'x-api-key').Reason, /revoked/);
    assert.ok(!assertOk(await server.client.apiKeys.list()).some((k) => k.key_name === 'to-revoke'));
    assertError(await server.client.apiKeys.revoke('to-revoke'), 404, 'Not-Found', 'key_name');
    // The name is free again once revoked.
    assertOk(await server.client.apiKeys.create({ key_name: 'to-revoke', role: 'viewer' }));
  });

  it('answers 401 for an expired key (manual clock)', async () => {
    const created = assertOk(
      await server.client.apiKeys.create({ key_name: 'short-lived', role: 'viewer', life_time_in_seconds: 60 }),
    );
    assert.ok(created.expires_at);
    const client = server.client.withKey(created.plaintext_key!);
    assertOk(await client.workgroups.list());
    assertOk(await server.client.moveClock({ advance_seconds: 61 }));
    const res = await client.workgroups.list();
    assert.match(assertError(res, 401, 'Unauthorized', 'x-api-key').Reason, /expired/);
  });

  it('validates key requests', async () => {
    const c = server.client;
    assertError(
      await c.request('POST', '/controller/v4/v2/apikeys', { body: { key_name: '', role: 'viewer' } }),
      400,
      'Bad-Request',
      'key_name',
    );
    assertError(
      await c.request('POST', '/controller/v4/v2/apikeys', { body: { key_name: 'x', role: 'root' } }),
      400,
      'Bad-Request',
      'role',
    );
    assertError(
      await c.apiKeys.create({ key_name: 'wg', role: 'workgroup-admin' }),
      400,
      'Bad-Request',
      'workgroup_ids',
    );
    assertError(
      await c.apiKeys.create({ key_name: 'wg', role: 'viewer', workgroup_ids: ['a'] }),
      400,
      'Bad-Request',
      'workgroup_ids',
    );
    assertError(
      await c.apiKeys.create({ key_name: 'wg', role: 'workgroup-admin', workgroup_ids: ['no-such-wg'] }),
      404,
      'Not-Found',
      'workgroup_ids[0]',
    );
    assertError(
      await c.apiKeys.create({ key_name: 'wg', role: 'viewer', life_time_in_seconds: 5 }),
      400,
      'Bad-Request',
      'life_time_in_seconds',
    );
    assertOk(await c.apiKeys.create({ key_name: 'dup', role: 'viewer' }));
    assertError(await c.apiKeys.create({ key_name: 'dup', role: 'viewer' }), 409, 'Bad-Request', 'key_name');
  });

  it("lets only org-admins manage keys, and only their own organisation's", async () => {
    const viewer = await server.orgClient('default', { role: 'viewer' });
    assertError(await viewer.apiKeys.list(), 403, 'Forbidden', 'x-api-key');
    assertError(
      await viewer.apiKeys.create({ key_name: 'escalate', role: 'org-admin' }),
      403,
      'Forbidden',
      'x-api-key',
    );
    assertError(await viewer.apiKeys.revoke('bootstrap'), 403, 'Forbidden', 'x-api-key');
    const other = await server.orgClient('other-keys-org');
    assertError(await other.apiKeys.revoke('bootstrap'), 404, 'Not-Found', 'key_name');
    assert.ok(!assertOk(await other.apiKeys.list()).some((k) => k.key_name === 'bootstrap'));
  });

  it('scopes a workgroup-admin key to workgroups that exist in the organisation', async () => {
    const provider = await publicProvider(server.client);
    const wg = assertOk(await server.client.workgroups.create({ cloud_provider_id: provider, name: 'key-scope' }));
    const key = assertOk(
      await server.client.apiKeys.create({
        key_name: 'wg-admin',
        role: 'workgroup-admin',
        workgroup_ids: [wg.workgroup_id],
      }),
    );
    assert.deepEqual(key.workgroup_ids, [wg.workgroup_id]);
    const client = server.client.withKey(key.plaintext_key!);
    assertOk(await client.workgroups.update(wg.workgroup_id, { enable_application_log: true }));
  });

  it("scopes a workspace-admin key to workspaces of its own organisation, naming each other one's place", async () => {
    const mine = resultOf(await server.client.workspaces.create(await newWorkgroup(server.client), { name: 'mine' }));
    const other = await server.orgClient('key-scope-other-org');
    const theirs = resultOf(await other.workspaces.create(await newWorkgroup(other), { name: 'theirs' }));
    const refused = await server.client.apiKeys.create({
      key_name: 'ws-admin',
      role: 'workspace-admin',
      workspace_ids: [mine.workspace_id!, theirs.workspace_id!, 'no-such-ws'],
    });
    assertError(refused, 404, 'Not-Found', 'workspace_ids[1]');
    assertError(refused, 404, 'Not-Found', 'workspace_ids[2]');
    assert.deepEqual(
      refused.body.ErrorDetails.map((d) => d.FieldName),
      ['workspace_ids[1]', 'workspace_ids[2]'],
    );
    assert.ok(!assertOk(await server.client.apiKeys.list()).some((k) => k.key_name === 'ws-admin'));

    const key = assertOk(
      await server.client.apiKeys.create({
        key_name: 'ws-admin',
        role: 'workspace-admin',
        workspace_ids: [mine.workspace_id!],
      }),
    );
    assert.deepEqual(key.workspace_ids, [mine.workspace_id]);
    const scoped = server.client.withKey(key.plaintext_key!);
    assertOk(await scoped.workspaces.get(mine.workgroup_id!, mine.workspace_id!));
  });

  it('tells any key its own record (role, scope, expiry) at GET /apikeys/current, never the plaintext', async () => {
    const provider = await publicProvider(server.client);
    const wg = assertOk(await server.client.workgroups.create({ cloud_provider_id: provider, name: 'whoami' }));
    const created = assertOk(
      await server.client.apiKeys.create({
        key_name: 'whoami-admin',
        role: 'workgroup-admin',
        workgroup_ids: [wg.workgroup_id],
        description: 'scoped',
        life_time_in_seconds: 3600,
      }),
    );
    // Beside the record, the key's user's grants: what the key may do is what both allow.
    const { user_grants: grants, ...own } = assertOk(
      await server.client.withKey(created.plaintext_key!).apiKeys.current(),
    );
    assert.deepEqual(grants, [{ role: 'org-admin', resource_id: null }]);
    const { plaintext_key: _shown, ...listed } = created;
    assert.deepEqual(own, listed, 'the same record GET /apikeys lists');
    assert.equal(own.plaintext_key, undefined);
    assert.deepEqual(
      own,
      assertOk(await server.client.apiKeys.list()).find((k) => k.key_name === 'whoami-admin'),
    );

    const viewerKey = assertOk(await server.client.apiKeys.create({ key_name: 'whoami-viewer', role: 'viewer' }));
    const viewer = server.client.withKey(viewerKey.plaintext_key!);
    const viewerOwn = assertOk(await viewer.apiKeys.current());
    assert.equal(viewerOwn.key_name, 'whoami-viewer');
    assert.equal(viewerOwn.role, 'viewer');
    assert.deepEqual(viewerOwn.workgroup_ids, []);
    // Another organisation's key sees its own record, not a key of this one.
    const other = await server.orgClient('whoami-other-org', { role: 'viewer' });
    assert.notEqual(assertOk(await other.apiKeys.current()).key_name, 'whoami-viewer');

    assertError(await server.client.withKey(undefined).apiKeys.current(), 401, 'Unauthorized', 'x-api-key');
    assertOk(await server.client.apiKeys.revoke('whoami-viewer'));
    assertError(await viewer.apiKeys.current(), 401, 'Unauthorized', 'x-api-key');
    // A key named "current" is still revoked by name.
    assertOk(await server.client.apiKeys.create({ key_name: 'current', role: 'viewer' }));
    assert.equal(assertOk(await server.client.apiKeys.revoke('current')).key_name, 'current');
  });
});

describe(`rate limit (${storeName})`, () => {
  it('answers 429 Quota-Exceed with Retry-After once a key exceeds its per-minute limit', async () => {
    const server = await startTestServer({ ACACIA_RATE_LIMIT: '5' });
    try {
      for (let i = 0; i < 5; i++) {
        const res = await server.client.workgroups.list();
        assertOk(res);
        assert.equal(res.headers['ratelimit-limit'], '5');
        assert.equal(res.headers['ratelimit-remaining'], String(4 - i));
      }
      const limited = await server.client.workgroups.list();
      assertError(limited, 429, 'Quota-Exceed', 'x-api-key');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal(limited.headers['ratelimit-remaining'], '0');
      assert.ok(limited.headers['ratelimit-reset'] !== undefined);
      // Another key has its own budget.
      assertOk(await (await server.orgClient('default', { role: 'viewer' })).workgroups.list());
    } finally {
      await server.close();
    }
  });
});

describe(`secrets stay out of logs (${storeName})`, () => {
  it('never writes a key the run used into the log', async () => {
    const server = await startTestServer();
    const used: string[] = [server.bootstrapKey];
    try {
      const created = assertOk(
        await server.client.apiKeys.create({ key_name: 'logged?', role: 'viewer' }),
      ).plaintext_key!;
      used.push(created);
      await server.client.withKey(created).workgroups.list();
      await server.client.withKey(`${created}x`).workgroups.list();
      used.push(`${created}x`);
      await server.client.request('POST', '/controller/v4/v2/workgroups', {
        body: '{bad',
        headers: { authorization: `Bearer ${created}` },
      });
      await new AcaciaClient({ baseUrl: server.url, apiKey: created }).request('GET', '/nowhere');
    } finally {
      await server.close();
    }
    const text = server.logs.join('\n');
    const lines = server.logs.filter((l) => l.includes('"request completed"'));
    assert.ok(lines.length >= 5, 'every request was logged');
    for (const key of used) assert.ok(!text.includes(key), 'a key used in the run appears in the logs');
  });
});
