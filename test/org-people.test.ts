import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const ARN = 'arn:aws:iam::123456789012:role/acacia/provisioner';

describe(`organisation, users and roles (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    admin = server.client;
  });
  after(() => server.close());

  /** Invites `email` with the roles and accepts: the new user's client and id. */
  async function invited(
    email: string,
    roles: string[] = [],
  ): Promise<{ client: AcaciaClient; userId: string; key: string }> {
    const invitation = assertOk(await admin.users.invite({ email, roles }));
    assert.match(invitation.invite_token, /^acacia_inv_/);
    assert.equal(invitation.user.status, 'invited');
    const anonymous = admin.withKey(undefined);
    const key = assertOk(await anonymous.users.accept({ token: invitation.invite_token, firstName: 'Ada' }));
    assert.equal(key.user_id, invitation.user.id);
    return { client: admin.withKey(key.plaintext_key!), userId: invitation.user.id, key: key.plaintext_key! };
  }

  it('tells the story: invited, accepted, given one workspace, limited to it, then refused', async () => {
    const wg = await newWorkgroup(admin);
    const mine = await activeWorkspace(admin, wg, { name: 'people-mine' });
    const other = await activeWorkspace(admin, wg, { name: 'people-other' });

    const invitation = assertOk(await admin.users.invite({ email: 'Ada@Example.com' }));
    const anonymous = admin.withKey(undefined);
    const key = assertOk(await anonymous.users.accept({ token: invitation.invite_token, lastName: 'Lovelace' }));
    assert.ok(key.plaintext_key);
    // The token is spent.
    assertError(await anonymous.users.accept({ token: invitation.invite_token }), 404, 'Not-Found', 'token');
    const ada = admin.withKey(key.plaintext_key!);
    const userId = invitation.user.id;

    // A member without roles reads but changes nothing, though its key's role is org-admin.
    assertOk(await ada.workspaces.get(wg, mine.workspace_id!));
    assertError(
      await ada.workspaces.update(wg, mine.workspace_id!, { auto_stop_minutes: 10 }),
      403,
      'Forbidden',
      'x-api-key',
    );

    const granted = assertOk(await admin.users.setRoles(userId, { roles: [`workspace-admin:${mine.workspace_id}`] }));
    assert.deepEqual(
      granted.roles.map((r) => [r.id, r.name, r.displayName]),
      [[`workspace-admin:${mine.workspace_id}`, 'workspace-admin', 'Workspace Admin']],
    );
    const current = assertOk(await ada.apiKeys.current());
    assert.deepEqual(current.user_grants, [{ role: 'workspace-admin', resource_id: mine.workspace_id }]);

    const edited = assertOk(await ada.workspaces.update(wg, mine.workspace_id!, { auto_stop_minutes: 10 }));
    assert.equal(edited.auto_stop_minutes, 10);
    assertError(
      await ada.workspaces.update(wg, other.workspace_id!, { auto_stop_minutes: 10 }),
      403,
      'Forbidden',
      'x-api-key',
    );
    assertError(await ada.workgroups.create({ cloud_provider_id: 'x' }), 403, 'Forbidden', 'x-api-key');
    assertError(await ada.workspaces.delete(wg, mine.workspace_id!), 403, 'Forbidden', 'x-api-key');
    // A key the user makes acts for the same user: no more than they may.
    assertError(await ada.apiKeys.create({ key_name: 'escalate' }), 403, 'Forbidden', 'x-api-key');

    // Roles taken back: the very next request is refused.
    assertOk(await admin.users.setRoles(userId, { roles: [] }));
    assertError(
      await ada.workspaces.update(wg, mine.workspace_id!, { auto_stop_minutes: 20 }),
      403,
      'Forbidden',
      'x-api-key',
    );

    // Disabled: the key admits nobody; enabled again, it does.
    assert.equal(assertOk(await admin.users.update(userId, { enabled: false })).enabled, false);
    assert.match(
      assertError(await ada.workspaces.list(wg), 401, 'Unauthorized', 'x-api-key').Reason,
      /user is disabled/,
    );
    assertOk(await admin.users.update(userId, { enabled: true }));
    assertOk(await ada.workspaces.list(wg));

    const listed = assertOk(await admin.users.list());
    const found = listed.find((u) => u.id === userId);
    assert.equal(found?.email, 'Ada@Example.com');
    assert.equal(found?.username, 'Ada');
    assert.equal(found?.status, 'active');
    assert.equal(found?.lastName, 'Lovelace');
    assert.ok(listed.some((u) => u.username === 'owner' && u.roles.some((r) => r.name === 'org-admin')));
  });

  it("refuses a disabled user's key at once on another server of the same store", async () => {
    const other = await startTestServer({ ACACIA_CLOCK: 'manual' }, server.store);
    try {
      const { key, userId } = await invited('elsewhere@example.com');
      const there = new AcaciaClient({ baseUrl: other.url, apiKey: key });
      // Read once through the other server, so that its process keeps the key (PostgreSQL).
      assertOk(await there.workgroups.list());
      assertOk(await admin.users.update(userId, { enabled: false }));
      assertError(await there.workgroups.list(), 401, 'Unauthorized', 'x-api-key');
      assertOk(await admin.users.update(userId, { enabled: true }));
      assertOk(await there.workgroups.list());
    } finally {
      await other.close();
    }
  });

  it('lets a workgroup admin create workspaces in its workgroup only', async () => {
    const wg = await newWorkgroup(admin);
    const elsewhere = await newWorkgroup(admin);
    const { client } = await invited('wg-admin@example.com', [`workgroup-admin:${wg}`]);
    assertOk(await client.workspaces.create(wg, { name: 'by-wg-admin' }));
    assertError(await client.workspaces.create(elsewhere, { name: 'nope' }), 403, 'Forbidden', 'x-api-key');
  });

  it('serves the organisation record and its update', async () => {
    const org = assertOk(await admin.org.show());
    assert.equal(org.org_name, 'default');
    assert.equal(org.org_display_name, 'default');
    assert.ok(org.creator);
    assert.deepEqual(org.feature_flag, []);
    assert.equal(org.delinquent_since, undefined);

    assert.equal(
      assertOk(await admin.org.update({ orgDisplayName: 'Default Inc.', logoUrl: 'https://example.com/l.png' })),
      org.org_id,
    );
    const updated = assertOk(await admin.org.show());
    assert.equal(updated.org_display_name, 'Default Inc.');
    assert.equal(updated.logo_url, 'https://example.com/l.png');

    assertError(await admin.org.update({ logoUrl: 'http://example.com/l.png' }), 400, 'Bad-Request', 'logoUrl');
    assertError(await admin.org.update({ logoUrl: 'not a url' }), 400, 'Bad-Request', 'logoUrl');
    assertError(await admin.org.update({ orgDisplayName: 'a\u0007b' }), 400, 'Bad-Request', 'orgDisplayName');
    assertError(await admin.org.update({ orgName: 'renamed' }), 400, 'Bad-Request', 'orgName');
    assertError(await admin.org.update({ orgID: 'someone-else' }), 400, 'Bad-Request', 'orgID');
    assertError(await admin.org.update({ orgDisplayName: 'x'.repeat(129) }), 400, 'Bad-Request', 'orgDisplayName');
    assertError(await admin.org.update({ colour: 'red' } as never), 400, 'Bad-Request', 'colour');
    // Nothing changed by the refusals.
    assert.deepEqual(assertOk(await admin.org.show()), updated);

    const { client: member } = await invited('member@example.com');
    assertOk(await member.org.show());
    assertError(await member.org.update({ orgDisplayName: 'mine' }), 403, 'Forbidden', 'x-api-key');
    assertOk(await admin.org.update({ orgDisplayName: '', logoUrl: '' }));
    const cleared = assertOk(await admin.org.show());
    assert.equal(cleared.org_display_name, 'default');
    assert.equal(cleared.logo_url, undefined);
  });

  it('counts quota usage as workspaces come', async () => {
    const org = `quota-${storeName}`;
    const client = await server.orgClient(org, { tier: 'paid' });
    const before = assertOk(await client.org.quota());
    assert.equal(before.tier, 'paid');
    assert.equal(before.rw_workspace_count_usage, 0);
    assert.equal(before.memory_usage_in_bytes, 0);
    assert.ok(before.rw_workspace_count_limit > 0);
    assert.match(before.memory_limit, /^\d+GB$/);
    assert.ok(before.workspace_auto_backup_retention_in_days > 0);
    const wg = await newWorkgroup(client);
    await activeWorkspace(client, wg, { name: 'counted' });
    const afterOne = assertOk(await client.org.quota());
    assert.equal(afterOne.rw_workspace_count_usage, 1);
    assert.ok(afterOne.memory_usage_in_bytes > 0);
    assert.equal(afterOne.memory_usage_in_bytes % 1024 ** 3, 0);
  });

  it('serves the keys at /org/api-keys, each with its user', async () => {
    const created = assertOk(await admin.org.createApiKey({ description: 'from the org path' }));
    assert.ok(created.plaintext_key);
    assert.ok(created.user_id);
    const listed = assertOk(await admin.org.listApiKeys());
    assert.ok(listed.some((k) => k.key_name === created.key_name && k.user_id === created.user_id));
    assert.ok(assertOk(await admin.apiKeys.list()).some((k) => k.key_name === created.key_name));
    assertOk(await admin.org.deleteApiKey({ key_name: created.key_name }));
    assertError(await admin.withKey(created.plaintext_key!).org.show(), 401, 'Unauthorized', 'x-api-key');
    assertError(await admin.org.deleteApiKey({ key_name: created.key_name }), 404, 'Not-Found', 'key_name');
    assertError(await admin.org.createApiKey({ life_time_in_seconds: 1 }), 400, 'Bad-Request', 'life_time_in_seconds');
    const { client: member } = await invited('keys-member@example.com');
    assertError(await member.org.listApiKeys(), 403, 'Forbidden', 'x-api-key');
  });

  it('refuses bad users input with 400 naming the field, 403 to non-admins, 404 for unknown ones', async () => {
    const bad: Array<[unknown, string]> = [
      [{ email: 'not-an-email' }, 'email'],
      [{ email: 'a@b.c', roles: ['root'] }, 'roles[0]'],
      [{ email: 'a@b.c', roles: ['workspace-admin'] }, 'roles[0]'],
      [{ email: 'a@b.c', roles: ['org-admin:x'] }, 'roles[0]'],
      [{ email: 'a@b.c', firstName: 'x\u0000' }, 'firstName'],
      [{ email: 'a@b.c', extra: 1 }, 'extra'],
      [{}, 'email'],
    ];
    const before = assertOk(await admin.users.list()).length;
    for (const [body, field] of bad) assertError(await admin.users.invite(body as never), 400, 'Bad-Request', field);
    assertError(
      await admin.users.invite({ email: 'a@b.c', roles: ['workspace-admin:no-such'] }),
      404,
      'Not-Found',
      'roles[0]',
    );
    assert.equal(assertOk(await admin.users.list()).length, before, 'nothing was created');

    const { client: member, userId } = await invited('dup@example.com');
    assertError(await admin.users.invite({ email: 'DUP@example.com' }), 409, 'Bad-Request', 'email');
    assertError(await admin.users.setRoles(userId, { roles: ['billing-boss'] }), 400, 'Bad-Request', 'roles[0]');
    assertError(await admin.users.setRoles(userId, {} as never), 400, 'Bad-Request', 'roles');
    assertError(await admin.users.setRoles('no-such-user', { roles: [] }), 404, 'Not-Found', 'userId');
    assertError(await admin.users.update('no-such-user', { enabled: false }), 404, 'Not-Found', 'userId');
    assertError(await admin.users.update(userId, { enabled: 'no' } as never), 400, 'Bad-Request', 'enabled');
    assertError(await member.users.list(), 403, 'Forbidden', 'x-api-key');
    assertError(await member.users.invite({ email: 'x@example.com' }), 403, 'Forbidden', 'x-api-key');
    assertError(await member.users.setRoles(userId, { roles: ['org-admin'] }), 403, 'Forbidden', 'x-api-key');
    assertError(await admin.withKey(undefined).users.accept({ token: 'acacia_inv_nope' }), 404, 'Not-Found', 'token');
    assertError(await admin.withKey(undefined).users.accept({} as never), 400, 'Bad-Request', 'token');
    // Users of another organisation are unknown here.
    const stranger = await server.orgClient(`strangers-${storeName}`);
    assertError(await stranger.users.setRoles(userId, { roles: [] }), 404, 'Not-Found', 'userId');
  });

  it('keeps an enabled org admin, and expires invitations', async () => {
    const owner = assertOk(await admin.users.list()).find((u) => u.username === 'owner')!;
    assertError(await admin.users.setRoles(owner.id, { roles: [] }), 409, 'Bad-Request', 'roles');
    assertError(await admin.users.update(owner.id, { enabled: false }), 409, 'Bad-Request', 'enabled');
    const invitation = assertOk(await admin.users.invite({ email: 'late@example.com' }));
    assertOk(await admin.moveClock({ advance_seconds: 8 * 24 * 3600 }));
    assertError(
      await admin.withKey(undefined).users.accept({ token: invitation.invite_token }),
      409,
      'Bad-Request',
      'token',
    );
  });

  it("lists every organisation's providers to a platform administrator only", async () => {
    const org = `byoc-${storeName}`;
    const byoc = await server.orgClient(org, { tier: 'enterprise' });
    const provider = assertOk(
      await byoc.cloudProviders.create({ name: 'theirs', platform: 'aws', region: 'us-east-1', role_arn: ARN }),
    );
    assertError(await admin.cloudProviders.listAll(), 403, 'Forbidden', 'x-api-key');
    const services = server.running.services;
    const home = (await services.organisations.find('default'))!;
    const made = await services.users.create(home.id, { email: 'ops@example.com', platformAdmin: true });
    assert.equal(made.user.platform_admin, true);
    const ops = admin.withKey(made.key.plaintext_key!);
    const all = assertOk(await ops.cloudProviders.listAll());
    assert.ok(all.some((p) => p.id === provider.id));
    assert.ok(all.some((p) => p.type === 'public'));
    const firstPage = await ops.cloudProviders.listAll({ limit: 1 });
    assert.equal(assertOk(firstPage).length, 1);
    assertError(await ops.cloudProviders.listAll({ limit: 0 }), 400, 'Bad-Request', 'limit');
    await services.users.setPlatformAdmin(home.id, 'ops@example.com', false);
    assertError(await ops.cloudProviders.listAll(), 403, 'Forbidden', 'x-api-key');
  });
});
