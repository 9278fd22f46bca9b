import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';

const PASSWORD = 'Graph-Secret-42';

describe(`database users (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;
  let wg: string;
  let ws: string;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    admin = server.client;
    wg = assertOk(
      await admin.workgroups.create({ cloud_provider_id: await publicProvider(admin), name: 'dbu' }),
    ).workgroup_id;
    ws = assertOk(await admin.workspaces.create(wg, { name: 'dbu-ws' })).workspace_id!;
  });
  after(() => server.close());

  it('creates, lists, changes the password of and deletes a user; passwords never come back', async () => {
    const created = assertOk(await admin.dbUsers.create(wg, ws, { username: 'alice', password: PASSWORD }));
    // The real service's IAM user fields it can fill, beside its own.
    assert.deepEqual(Object.keys(created).sort(), [
      'created',
      'created_at',
      'enabled',
      'id',
      'updated',
      'updated_at',
      'username',
      'workspace_id',
    ]);
    assert.equal(created.enabled, true);
    assert.equal(created.created, created.created_at);
    assert.equal(created.username, 'alice');
    assert.equal(created.workspace_id, ws);
    assertOk(await admin.dbUsers.create(wg, ws, { username: 'Bob.Reader', password: 'Another-Secret-7' }));
    const listed = assertOk(await admin.dbUsers.list(wg, ws));
    assert.deepEqual(
      listed.map((u) => u.username),
      ['alice', 'Bob.Reader'],
    );
    assert.equal(JSON.stringify(listed).includes('password'), false);

    const changed = assertOk(await admin.dbUsers.update(wg, ws, { username: 'ALICE', password: 'Changed-Secret-9' }));
    assert.equal(changed.username, 'alice', 'usernames match case-insensitively');

    const deleted = assertOk(await admin.dbUsers.delete(wg, ws, { username: 'bob.reader' }));
    assert.equal(deleted.username, 'Bob.Reader');
    assert.deepEqual(
      assertOk(await admin.dbUsers.list(wg, ws)).map((u) => u.username),
      ['alice'],
    );
    assertError(await admin.dbUsers.delete(wg, ws, { username: 'bob.reader' }), 404, 'Not-Found', 'username');
    assertError(
      await admin.dbUsers.update(wg, ws, { username: 'nobody', password: PASSWORD }),
      404,
      'Not-Found',
      'username',
    );
    assert.equal(
      server.logs.some((l) => l.includes(PASSWORD) || l.includes('Changed-Secret-9')),
      false,
      'passwords never reach the log',
    );
  });

  it('refuses a duplicate username, case-insensitively (409)', async () => {
    assertOk(await admin.dbUsers.create(wg, ws, { username: 'carol', password: PASSWORD }));
    assertError(
      await admin.dbUsers.create(wg, ws, { username: 'Carol', password: PASSWORD }),
      409,
      'Bad-Request',
      'username',
    );
  });

  it('refuses bad usernames and weak passwords, naming the field', async () => {
    const bad = (username: string, password: string) => admin.dbUsers.create(wg, ws, { username, password });
    assertError(await bad('1st-user', PASSWORD), 400, 'Bad-Request', 'username');
    assertError(await bad('has space', PASSWORD), 400, 'Bad-Request', 'username');
    assertError(await bad('', PASSWORD), 400, 'Bad-Request', 'username');
    assertError(await bad('x'.repeat(64), PASSWORD), 400, 'Bad-Request', 'username');
    for (const reserved of ['tigergraph', 'Root', 'admin'])
      assertError(await bad(reserved, PASSWORD), 400, 'Bad-Request', 'username');
    assertError(await bad('dave', 'Short-1'), 400, 'Bad-Request', 'password');
    assertError(await bad('dave', 'onlylowercaseletters'), 400, 'Bad-Request', 'password');
    assertError(await bad('dave', 'My-DAVE-password-1'), 400, 'Bad-Request', 'password');
    const both = await bad('root', 'weak');
    assertError(both, 400, 'Bad-Request', 'username');
    assertError(both, 400, 'Bad-Request', 'password');
    assert.equal(both.body.ErrorDetails.length, 2, 'username and password problems are reported together');
    assert.equal(JSON.stringify(both.body).includes('weak'), false, 'a refused password is not echoed');
    assertOk(await admin.dbUsers.create(wg, ws, { username: 'heidi', password: PASSWORD }));
    assertError(
      await admin.dbUsers.update(wg, ws, { username: 'heidi', password: 'weakweakweak' }),
      400,
      'Bad-Request',
      'password',
    );
    assertError(
      await admin.request('POST', `/controller/v4/v2/workgroups/${wg}/workspaces/${ws}/dbuser`, {
        body: { username: 'eve' },
      }),
      400,
      'Bad-Request',
      'password',
    );
    assertError(
      await admin.request('DELETE', `/controller/v4/v2/workgroups/${wg}/workspaces/${ws}/dbuser`),
      400,
      'Bad-Request',
      'username',
    );
    assertError(
      await admin.request('POST', `/controller/v4/v2/workgroups/${wg}/workspaces/${ws}/dbuser`, {
        body: { username: 'eve', password: PASSWORD, role: 'x' },
      }),
      400,
      'Bad-Request',
      'role',
    );
    assert.equal(
      assertOk(await admin.dbUsers.list(wg, ws)).some((u) => u.username === 'dave' || u.username === 'eve'),
      false,
    );
  });

  it('a workspace-admin of the workspace manages users; viewers only read; other organisations see none', async () => {
    assertOk(await admin.dbUsers.create(wg, ws, { username: 'grace', password: PASSWORD }));
    const wsAdmin = await server.orgClient('default', { role: 'workspace-admin', workspaceIds: [ws] });
    assertOk(await wsAdmin.dbUsers.create(wg, ws, { username: 'frank', password: PASSWORD }));
    assertOk(await wsAdmin.dbUsers.delete(wg, ws, { username: 'frank' }));
    const otherAdmin = await server.orgClient('default', { role: 'workspace-admin', workspaceIds: ['another'] });
    assertError(
      await otherAdmin.dbUsers.create(wg, ws, { username: 'frank', password: PASSWORD }),
      403,
      'Forbidden',
      'x-api-key',
    );
    const viewer = await server.orgClient('default', { role: 'viewer' });
    assert.ok(assertOk(await viewer.dbUsers.list(wg, ws)).some((u) => u.username === 'grace'));
    assertError(
      await viewer.dbUsers.create(wg, ws, { username: 'frank', password: PASSWORD }),
      403,
      'Forbidden',
      'x-api-key',
    );
    assertError(
      await viewer.dbUsers.update(wg, ws, { username: 'grace', password: PASSWORD }),
      403,
      'Forbidden',
      'x-api-key',
    );
    assertError(await viewer.dbUsers.delete(wg, ws, { username: 'grace' }), 403, 'Forbidden', 'x-api-key');
    assert.ok(
      assertOk(await admin.dbUsers.list(wg, ws)).some((u) => u.username === 'grace'),
      'the viewer deleted nothing',
    );
    const stranger = await server.orgClient('dbu-stranger');
    assertError(await stranger.dbUsers.list(wg, ws), 404, 'Not-Found', 'workgroupID');
    assertError(await admin.dbUsers.list(wg, 'no-such-workspace'), 404, 'Not-Found', 'workspaceID');
  });
});
