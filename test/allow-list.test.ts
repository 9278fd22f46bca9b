import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AcaciaClient } from '../src/client/index.js';
import { iso } from '../src/domain/time.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { newWorkgroup } from './helpers/workspaces.js';

describe(`allow list (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;
  let clockNow: () => Promise<number>;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual' });
    admin = server.client;
    clockNow = async () => Date.parse(assertOk(await admin.moveClock({ advance_seconds: 0 })).now);
  });
  after(() => server.close());

  it('adds, lists, updates and deletes entries, normalising the cidr', async () => {
    const wg = await newWorkgroup(admin, 'al-crud');
    const single = assertOk(await admin.allowList.create(wg, { cidr: '203.0.113.7', note: 'office' }));
    assert.match(single.id, /^[0-9a-f-]{36}$/);
    assert.equal(single.cidr, '203.0.113.7/32');
    assert.equal(single.note, 'office');
    assert.equal(single.expires_at, undefined);
    assert.match(single.created_at, /Z$/);
    const v6 = assertOk(await admin.allowList.create(wg, { cidr: '2001:DB8:0:0::/64' }));
    assert.equal(v6.cidr, '2001:db8::/64');
    assert.equal(assertOk(await admin.allowList.create(wg, { cidr: '::1' })).cidr, '::1/128');

    // Same created_at under the manual clock: compare as sets.
    assert.deepEqual(
      assertOk(await admin.allowList.list(wg))
        .map((e) => e.cidr)
        .sort(),
      ['2001:db8::/64', '203.0.113.7/32', '::1/128'],
    );

    const updated = assertOk(await admin.allowList.update(wg, single.id, { cidr: '203.0.113.0/24' }));
    assert.equal(updated.cidr, '203.0.113.0/24');
    assert.equal(updated.note, 'office', 'an omitted note keeps its value');
    assert.equal(updated.id, single.id);
    // The entry's fields sent back with its id are a valid update.
    assert.equal(
      assertOk(await admin.allowList.update(wg, single.id, { id: single.id, cidr: updated.cidr, note: 'office 2' }))
        .note,
      'office 2',
    );

    assert.equal(assertOk(await admin.allowList.delete(wg, v6.id)), v6.id);
    assert.deepEqual(
      assertOk(await admin.allowList.list(wg))
        .map((e) => e.cidr)
        .sort(),
      ['203.0.113.0/24', '::1/128'],
    );
    assertError(await admin.allowList.delete(wg, v6.id), 404, 'Not-Found', 'id');
    assertError(await admin.allowList.update(wg, v6.id, { cidr: '10.0.0.0/8' }), 404, 'Not-Found', 'id');
  });

  it('refuses invalid input, naming the field', async () => {
    const wg = await newWorkgroup(admin, 'al-invalid');
    // assertError also checks that no Result is sent, though operations 11 and 12 declare a string one.
    const hostBits = await admin.allowList.create(wg, { cidr: '10.0.0.5/24' });
    assert.equal(
      assertError(hostBits, 400, 'Bad-Request', 'cidr').Reason,
      '10.0.0.5/24 has host bits set; did you mean 10.0.0.0/24?',
    );
    assertError(await admin.allowList.create(wg, { cidr: 'not-an-ip' }), 400, 'Bad-Request', 'cidr');
    assertError(await admin.allowList.create(wg, { cidr: '10.0.0.0/40' }), 400, 'Bad-Request', 'cidr');
    assertError(
      await admin.allowList.create(wg, { cidr: '10.0.0.0/8', note: 'n'.repeat(257) }),
      400,
      'Bad-Request',
      'note',
    );
    assertError(
      await admin.request('POST', `/controller/v4/v2/workgroups/${wg}/allow_list`, { body: {} }),
      400,
      'Bad-Request',
      'cidr',
    );
    assertError(
      await admin.request('POST', `/controller/v4/v2/workgroups/${wg}/allow_list`, {
        body: { cidr: '10.0.0.0/8', colour: 'red' },
      }),
      400,
      'Bad-Request',
      'colour',
    );
    assertError(
      await admin.allowList.create(wg, { cidr: '10.0.0.0/8', expires_at: 'tomorrow' }),
      400,
      'Bad-Request',
      'expires_at',
    );
    const now = await clockNow();
    assertError(
      await admin.allowList.create(wg, { cidr: '10.0.0.0/8', expires_at: iso(now - 1000) }),
      400,
      'Bad-Request',
      'expires_at',
    );
    assertError(
      await admin.allowList.create(wg, { cidr: '10.0.0.0/8', expires_at: iso(now + 8 * 86_400_000) }),
      400,
      'Bad-Request',
      'expires_at',
    );
    const both = await admin.allowList.create(wg, { cidr: '10.0.0.1/8', expires_at: iso(now - 1000) });
    assertError(both, 400, 'Bad-Request', 'cidr');
    assertError(both, 400, 'Bad-Request', 'expires_at');
    assert.equal(both.body.ErrorDetails.length, 2, 'cidr and expires_at problems are reported together');
    assertError(
      await admin.allowList.create('no-such-workgroup', { cidr: '10.0.0.0/8' }),
      404,
      'Not-Found',
      'workgroupID',
    );
    assert.deepEqual(assertOk(await admin.allowList.list(wg)), [], 'refused requests add nothing');
  });

  it('refuses invalid updates, naming the field, and changes nothing', async () => {
    const wg = await newWorkgroup(admin, 'al-bad-update');
    const entry = assertOk(await admin.allowList.create(wg, { cidr: '10.1.0.0/16', note: 'vpn' }));
    const hostBits = await admin.allowList.update(wg, entry.id, { cidr: '10.1.2.3/16' });
    assert.match(assertError(hostBits, 400, 'Bad-Request', 'cidr').Reason, /did you mean 10\.1\.0\.0\/16\?/);
    assertError(
      await admin.allowList.update(wg, entry.id, { cidr: '10.1.0.0/16', expires_at: 'soon' }),
      400,
      'Bad-Request',
      'expires_at',
    );
    const now = await clockNow();
    assertError(
      await admin.allowList.update(wg, entry.id, { cidr: '10.1.0.0/16', expires_at: iso(now + 8 * 86_400_000) }),
      400,
      'Bad-Request',
      'expires_at',
    );
    assertError(
      await admin.request('PUT', `/controller/v4/v2/workgroups/${wg}/allow_list/${entry.id}`, {
        body: { note: 'no cidr' },
      }),
      400,
      'Bad-Request',
      'cidr',
    );
    assertError(
      await admin.request('PUT', `/controller/v4/v2/workgroups/${wg}/allow_list/${entry.id}`, {
        body: { id: 'another-id', cidr: '10.1.0.0/16' },
      }),
      400,
      'Bad-Request',
      'id',
    );
    assert.deepEqual(assertOk(await admin.allowList.list(wg)), [entry], 'refused updates change nothing');
  });

  it('refuses duplicates within a workgroup, also after normalisation', async () => {
    const wg = await newWorkgroup(admin, 'al-dup');
    assertOk(await admin.allowList.create(wg, { cidr: '198.51.100.9' }));
    assertError(await admin.allowList.create(wg, { cidr: '198.51.100.9/32' }), 409, 'Bad-Request', 'cidr');
    const other = assertOk(await admin.allowList.create(wg, { cidr: '198.51.100.0/24' }));
    assertError(await admin.allowList.update(wg, other.id, { cidr: '198.51.100.9' }), 409, 'Bad-Request', 'cidr');
    // Another workgroup may list the same range.
    assertOk(await admin.allowList.create(await newWorkgroup(admin, 'al-dup-2'), { cidr: '198.51.100.9' }));
  });

  it('expires temporary entries at their instant and removes them', async () => {
    const wg = await newWorkgroup(admin, 'al-expiry');
    assertOk(await admin.allowList.enable(wg));
    const now = await clockNow();
    const temp = assertOk(await admin.allowList.create(wg, { cidr: '127.0.0.1', expires_at: iso(now + 3600_000) }));
    assert.equal(temp.expires_at, iso(now + 3600_000));
    assert.equal(assertOk(await admin.allowList.current(wg)).matched_entry_id, temp.id);
    assert.equal(assertOk(await admin.workgroups.get(wg)).is_current_ip_allowed, true);

    assertOk(await admin.moveClock({ advance_seconds: 3600 }));
    assert.deepEqual(assertOk(await admin.allowList.list(wg)), []);
    assert.deepEqual(assertOk(await admin.allowList.current(wg)), {
      IsAllowed: false,
      CurrentIP: '127.0.0.1',
      ip: '127.0.0.1',
      allowed: false,
      enable_allow_list: true,
    });
    assert.equal(assertOk(await admin.workgroups.get(wg)).is_current_ip_allowed, false);
    assertError(await admin.allowList.delete(wg, temp.id), 404, 'Not-Found', 'id');
    // The range may be listed again at once.
    const again = assertOk(await admin.allowList.create(wg, { cidr: '127.0.0.1' }));
    const permanent = assertOk(
      await admin.allowList.update(wg, again.id, { cidr: '127.0.0.1', expires_at: iso(now + 7200_000) }),
    );
    assert.equal(permanent.expires_at, iso(now + 7200_000));
    assert.equal(
      assertOk(await admin.allowList.update(wg, again.id, { cidr: '127.0.0.1', expires_at: null })).expires_at,
      undefined,
    );
  });

  it('enables and disables the list; is_current_ip_allowed and current agree', async () => {
    const wg = await newWorkgroup(admin, 'al-switch');
    assert.deepEqual(assertOk(await admin.allowList.current(wg)), {
      IsAllowed: true,
      CurrentIP: '127.0.0.1',
      ip: '127.0.0.1',
      allowed: true,
      enable_allow_list: false,
    });

    assert.equal(assertOk(await admin.allowList.enable(wg)), wg, 'the Result is the workgroup id');
    const enabled = assertOk(await admin.workgroups.get(wg));
    assert.equal(enabled.enable_allow_list, true);
    assert.equal(enabled.version_number, 2);
    assert.equal(enabled.is_current_ip_allowed, false, 'an empty enabled list allows nobody');
    assert.equal(assertOk(await admin.allowList.current(wg)).allowed, false);
    assert.equal(
      assertOk(await admin.workgroups.list()).find((w) => w.workgroup_id === wg)!.is_current_ip_allowed,
      false,
    );

    assertOk(await admin.allowList.create(wg, { cidr: '192.0.2.0/24' }));
    assert.equal(assertOk(await admin.allowList.current(wg)).allowed, false);
    const mine = assertOk(await admin.allowList.create(wg, { cidr: '127.0.0.0/8' }));
    assert.deepEqual(assertOk(await admin.allowList.current(wg)), {
      IsAllowed: true,
      CurrentIP: '127.0.0.1',
      ip: '127.0.0.1',
      allowed: true,
      enable_allow_list: true,
      matched_entry_id: mine.id,
    });
    assert.equal(assertOk(await admin.workgroups.get(wg)).is_current_ip_allowed, true);

    assertError(await admin.allowList.disable(wg, { ifMatch: 1 }), 412, 'Bad-Request', 'If-Match');
    assertOk(await admin.allowList.disable(wg, { ifMatch: 2 }));
    const disabled = assertOk(await admin.workgroups.get(wg));
    assert.equal(disabled.enable_allow_list, false);
    assert.equal(disabled.version_number, 3);
    assertOk(await admin.allowList.disable(wg));
    assert.equal(
      assertOk(await admin.workgroups.get(wg)).version_number,
      3,
      'disabling a disabled list changes nothing',
    );
  });

  it('lets org-admins and scoped workgroup-admins edit; everyone reads', async () => {
    const wg = await newWorkgroup(admin, 'al-roles');
    const elsewhere = await newWorkgroup(admin, 'al-roles-other');
    const entry = assertOk(await admin.allowList.create(wg, { cidr: '10.1.0.0/16' }));
    const wgAdmin = await server.orgClient('default', { role: 'workgroup-admin', workgroupIds: [wg] });
    assertOk(await wgAdmin.allowList.create(wg, { cidr: '10.2.0.0/16' }));
    assertOk(await wgAdmin.allowList.enable(wg));
    assertError(await wgAdmin.allowList.create(elsewhere, { cidr: '10.2.0.0/16' }), 403, 'Forbidden', 'x-api-key');
    assertError(await wgAdmin.allowList.enable(elsewhere), 403, 'Forbidden', 'x-api-key');

    for (const role of ['viewer', 'workspace-admin'] as const) {
      const c = await server.orgClient(
        'default',
        role === 'viewer' ? { role } : { role, workspaceIds: ['some-workspace'] },
      );
      assert.equal(assertOk(await c.allowList.list(wg)).length, 2);
      assertOk(await c.allowList.current(wg));
      assertError(await c.allowList.create(wg, { cidr: '10.3.0.0/16' }), 403, 'Forbidden', 'x-api-key');
      assertError(await c.allowList.update(wg, entry.id, { cidr: '10.3.0.0/16' }), 403, 'Forbidden', 'x-api-key');
      assertError(await c.allowList.delete(wg, entry.id), 403, 'Forbidden', 'x-api-key');
      assertError(await c.allowList.disable(wg), 403, 'Forbidden', 'x-api-key');
    }
    const stranger = await server.orgClient('al-stranger');
    assertError(await stranger.allowList.list(wg), 404, 'Not-Found', 'workgroupID');
    assertError(await stranger.allowList.delete(wg, entry.id), 404, 'Not-Found', 'workgroupID');
  });
});
