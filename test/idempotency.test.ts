import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AcaciaClient } from '../src/client/index.js';
import { API_PREFIX } from '../src/schemas/envelope.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { newWorkgroup, waitForStatus } from './helpers/workspaces.js';
import { openStoreOf, snapshotStore } from './helpers/store-snapshot.js';

describe(`Idempotency-Key scope and secrets (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;
  let viewer: AcaciaClient;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0' });
    admin = server.client;
    viewer = await server.orgClient('default', { role: 'viewer' });
  });
  after(() => server.close());

  it("never replays one API key's response to another key of the organisation", async () => {
    // An org-admin makes a key; a viewer sending the same request under the same value gets
    // its own answer, a refusal, not the admin's response with the key in it.
    const body = { key_name: 'made-once', role: 'viewer' } as const;
    const made = assertOk(await admin.apiKeys.create(body, { idempotencyKey: 'shared-value' }));
    const asViewer = await viewer.apiKeys.create(body, { idempotencyKey: 'shared-value' });
    assertError(asViewer, 403, 'Forbidden', 'x-api-key');
    assert.equal(asViewer.headers['idempotent-replayed'], undefined);
    assert.ok(!JSON.stringify(asViewer.body).includes(made.plaintext_key!));
    // Its own refusal is what the viewer gets again.
    const again = await viewer.apiKeys.create(body, { idempotencyKey: 'shared-value' });
    assertError(again, 403, 'Forbidden', 'x-api-key');
    assert.equal(again.headers['idempotent-replayed'], 'true');

    // The other way round: a viewer's stored refusal is never an org-admin's answer.
    const later = { key_name: 'made-after-a-refusal', role: 'viewer' } as const;
    assertError(await viewer.apiKeys.create(later, { idempotencyKey: 'refused-first' }), 403, 'Forbidden', 'x-api-key');
    const byAdmin = await admin.apiKeys.create(later, { idempotencyKey: 'refused-first' });
    assert.equal(byAdmin.headers['idempotent-replayed'], undefined);
    assert.match(assertOk(byAdmin).plaintext_key!, /^acacia_sk_/);

    // Another org-admin key of the same organisation runs its own request under the value.
    const otherAdmin = await server.orgClient('default', { role: 'org-admin' });
    assertError(
      await otherAdmin.apiKeys.create(body, { idempotencyKey: 'shared-value' }),
      409,
      'Bad-Request',
      'key_name',
    );
    const names = assertOk(await admin.apiKeys.list()).map((k) => k.key_name);
    assert.equal(names.filter((n) => n === 'made-once').length, 1);
    assert.equal(names.filter((n) => n === 'made-after-a-refusal').length, 1);
  });

  it('keeps no plaintext key in the store; a replay of POST /apikeys shows the record without it', async () => {
    const body = { key_name: 'shown-once', role: 'viewer' } as const;
    const first = await admin.apiKeys.create(body, { idempotencyKey: 'key-secret' });
    const made = assertOk(first);
    assert.match(made.plaintext_key!, /^acacia_sk_/);

    const replay = await admin.apiKeys.create(body, { idempotencyKey: 'key-secret' });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body.RequestID, first.body.RequestID);
    const { plaintext_key, ...rest } = made;
    assert.ok(plaintext_key);
    assert.deepEqual(assertOk(replay), rest, 'the same record, without the key itself');
    assertOk(await admin.withKey(plaintext_key).workgroups.list());

    // Read behind the API's back: the key is in no row of any table.
    const reader = await openStoreOf(server.store);
    try {
      const kept = await reader.db
        .selectFrom('idempotency_keys')
        .select(['response_body', 'status_code'])
        .where('key', '=', 'key-secret')
        .execute();
      assert.equal(kept.length, 1);
      assert.equal(kept[0]!.status_code, 200);
      assert.ok(kept[0]!.response_body!.includes(made.redacted_key));
      assert.ok(!kept[0]!.response_body!.includes('plaintext_key'));
      const secret = plaintext_key.slice('acacia_sk_'.length);
      for (const [table, { rows }] of await snapshotStore(reader)) {
        assert.ok(!rows.some((row) => row.includes(secret)), `table ${table} holds the plaintext key`);
      }
    } finally {
      await reader.close();
    }
  });

  it('takes Idempotency-Key with the API key in either header; a replay may send the key in the other', async () => {
    const bearer = new AcaciaClient({ baseUrl: server.url, apiKey: server.bootstrapKey, auth: 'bearer' });
    for (const [label, first, second] of [
      ['bearer-then-x-api-key', bearer, admin],
      ['x-api-key-then-bearer', admin, bearer],
    ] as const) {
      const body = { key_name: label, role: 'viewer' } as const;
      const made = await first.apiKeys.create(body, { idempotencyKey: label });
      const { plaintext_key, ...record } = assertOk(made);
      assert.ok(plaintext_key);
      const replay = await second.apiKeys.create(body, { idempotencyKey: label });
      assert.equal(replay.headers['idempotent-replayed'], 'true', label);
      assert.equal(replay.body.RequestID, made.body.RequestID);
      assert.deepEqual(assertOk(replay), record);
    }
    // Both headers, with the same key, are the same caller again.
    const both = await bearer.apiKeys.create(
      { key_name: 'bearer-then-x-api-key', role: 'viewer' },
      { idempotencyKey: 'bearer-then-x-api-key', headers: { 'x-api-key': server.bootstrapKey } },
    );
    assert.equal(both.headers['idempotent-replayed'], 'true');
    const names = assertOk(await admin.apiKeys.list()).map((k) => k.key_name);
    assert.equal(names.filter((n) => n.endsWith('-then-bearer') || n.endsWith('-then-x-api-key')).length, 2);
  });

  it('runs POSTs whose domain opens transactions of its own once; remembers refusals raised inside them', async () => {
    const wg = await newWorkgroup(admin, 'idem-tx');
    // A workspace create is a transaction of its own (a savepoint within the request's).
    const first = await admin.workspaces.create(wg, { name: 'once' }, { idempotencyKey: 'ws-once' });
    const ws = assertOk(first);
    const replay = await admin.workspaces.create(wg, { name: 'once' }, { idempotencyKey: 'ws-once' });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.body, first.body);
    // The engine hears of the new operation once the request has committed.
    await waitForStatus(admin, wg, ws.workspace_id!, 'Active');

    // A refusal raised inside the domain's transaction is rolled back and remembered.
    const taken = await admin.workspaces.create(wg, { name: 'once' }, { idempotencyKey: 'ws-taken' });
    assertError(taken, 409, 'Bad-Request', 'name');
    const takenAgain = await admin.workspaces.create(wg, { name: 'once' }, { idempotencyKey: 'ws-taken' });
    assertError(takenAgain, 409, 'Bad-Request', 'name');
    assert.equal(takenAgain.headers['idempotent-replayed'], 'true');
    assert.deepEqual(
      assertOk(await admin.workspaces.list(wg)).map((w) => w.name),
      ['once'],
    );

    // A database user (hashed meanwhile) and an add-on install (which retries its insert in a
    // savepoint when it loses a race), each under a key.
    const users = `${API_PREFIX}/workgroups/${wg}/workspaces/${ws.workspace_id}/dbuser`;
    const user = { username: 'idem_user', password: 'Idem-Secret-123' };
    assertOk(await admin.request('POST', users, { body: user, idempotencyKey: 'user-once' }));
    const userReplay = await admin.request('POST', users, { body: user, idempotencyKey: 'user-once' });
    assert.equal(userReplay.headers['idempotent-replayed'], 'true');
    assert.equal(assertOk(await admin.dbUsers.list(wg, ws.workspace_id!)).length, 1);
    const reader = await openStoreOf(server.store);
    try {
      for (const [table, { rows }] of await snapshotStore(reader))
        assert.ok(!rows.some((row) => row.includes(user.password)), `table ${table} holds the password`);
    } finally {
      await reader.close();
    }
    const addon = assertOk(await admin.addons.catalog())[1]!.addons_id;
    const installed = assertOk(
      await admin.addons.install(addon, { enable: 'true' }, { idempotencyKey: 'install-once' }),
    );
    const installReplay = await admin.addons.install(addon, { enable: 'true' }, { idempotencyKey: 'install-once' });
    assert.equal(installReplay.headers['idempotent-replayed'], 'true');
    assert.equal(assertOk(installReplay).id, installed.id);
  });

  it("runs the other POSTs that write in the request's unit of work, each once", async () => {
    const wg = await newWorkgroup(admin, 'idem-unit');
    const ws = assertOk(await admin.workspaces.create(wg, { name: 'unit' })).workspace_id!;
    await waitForStatus(admin, wg, ws, 'Active');
    const installed = assertOk(
      await admin.addons.install(assertOk(await admin.addons.catalog())[0]!.addons_id, { enable: 'true' }),
    );
    const place = `${API_PREFIX}/workgroups/${wg}/workspaces/${ws}`;
    const posts: Array<[string, unknown]> = [
      [`${place}/backups`, { tag: 'under-a-key' }],
      [`${place}/backups/schedule`, { schedule: '0 3 * * *' }],
      [`${place}/schedules`, { repeat: 'daily', time: '04:00', timezone: 'UTC', action: 'pause', workspace_id: ws }],
      [`${API_PREFIX}/workgroups/${wg}/allow_list`, { cidr: '203.0.113.9' }],
      [`${API_PREFIX}/add-ons/${installed.id}/configs`, { config_name: 'theme', config_value: 'dark' }],
      [`${place}/pause`, undefined],
    ];
    for (const [i, [path, body]] of posts.entries()) {
      const first = await admin.request('POST', path, { body, idempotencyKey: `unit-${i}` });
      assertOk(first);
      const replay = await admin.request('POST', path, { body, idempotencyKey: `unit-${i}` });
      assert.equal(replay.headers['idempotent-replayed'], 'true', path);
      assert.deepEqual(replay.body, first.body, path);
    }
    assert.equal(assertOk(await admin.backups.list(wg, ws)).filter((b) => b.tag === 'under-a-key').length, 1);
    assert.equal(assertOk(await admin.schedules.list(wg, ws)).length, 1);
    // The pause was enqueued by the request's unit, and the engine heard of it once that committed.
    await waitForStatus(admin, wg, ws, 'Stopped');
  });
});
