import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { newWorkgroup } from './helpers/workspaces.js';

const ARN = 'arn:aws:iam::123456789012:role/acacia/provisioner';
/** 64 characters whose lower case is 128 (`İ` lowers to `i` and a combining dot above). */
const DOTTED = 'İ'.repeat(64);
/** Names that must be refused: a control character, a right-to-left override, an isolate, a line separator. */
const UNSAFE = ['bell\u0007', 'invoice\u202Efdp.exe', 'a\u2066b\u2069', 'two\u2028lines'];

describe(`resource names behave the same on both stores (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let orgs = 0;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
  });
  beforeEach(async () => {
    c = await server.orgClient(`names-${++orgs}`);
  });
  after(() => server.close());

  it('takes a 64-character name with a longer lower case on each create and rename; unique in any case', async () => {
    const provider = (await c.cloudProviders.list().then(resultOf)).find(
      (p) => p.type === 'public' && p.region === 'us-east-1',
    )!.id;

    const wg = assertOk(await c.workgroups.create({ cloud_provider_id: provider, name: DOTTED }));
    assert.equal(wg.name, DOTTED);
    assertError(await c.workgroups.create({ cloud_provider_id: provider, name: DOTTED }), 409, 'Bad-Request', 'name');
    const other = assertOk(await c.workgroups.create({ cloud_provider_id: provider, name: 'other' }));
    assertError(await c.workgroups.update(other.workgroup_id, { workgroup_name: DOTTED }), 409, 'Bad-Request', 'name');
    assert.equal(
      assertOk(await c.workgroups.update(other.workgroup_id, { workgroup_name: `${'İ'.repeat(63)}x` })).name,
      `${'İ'.repeat(63)}x`,
    );

    const ws = assertOk(await c.workspaces.create(wg.workgroup_id, { name: DOTTED }));
    assert.equal(ws.name, DOTTED);
    assert.equal(ws.database_name, DOTTED, 'the derived database name is cut to 64 characters');
    assertError(await c.workspaces.create(wg.workgroup_id, { name: DOTTED }), 409, 'Bad-Request', 'name');
    const ws2 = assertOk(await c.workspaces.create(wg.workgroup_id, { name: 'second', database_name: 'second-db' }));
    assertError(
      await c.workspaces.update(wg.workgroup_id, ws2.workspace_id!, { workspace_name: DOTTED }),
      409,
      'Bad-Request',
      'name',
    );
    assert.equal(
      assertOk(await c.workspaces.update(wg.workgroup_id, ws2.workspace_id!, { workspace_name: `x${'İ'.repeat(63)}` }))
        .name,
      `x${'İ'.repeat(63)}`,
    );
    assertError(
      await c.databases.rename(wg.workgroup_id, ws2.database_id!, { tg_database_name: DOTTED }),
      409,
      'Bad-Request',
      'tg_database_name',
    );
    assert.equal(
      assertOk(await c.databases.rename(wg.workgroup_id, ws2.database_id!, { tg_database_name: `y${'İ'.repeat(63)}` }))
        .name,
      `y${'İ'.repeat(63)}`,
    );

    const byoc = assertOk(
      await c.cloudProviders.create({ name: DOTTED, platform: 'aws', region: 'us-east-1', role_arn: ARN }),
    );
    assert.equal(byoc.name, DOTTED);
    assertError(
      await c.cloudProviders.create({ name: DOTTED, platform: 'aws', region: 'us-east-1', role_arn: ARN }),
      409,
      'Bad-Request',
      'name',
    );
    const byoc2 = assertOk(
      await c.cloudProviders.create({ name: 'byoc-two', platform: 'aws', region: 'us-east-1', role_arn: ARN }),
    );
    assertError(await c.cloudProviders.update(byoc2.id, { name: DOTTED }), 409, 'Bad-Request', 'name');
    assert.equal(
      assertOk(await c.cloudProviders.update(byoc2.id, { name: `z${'İ'.repeat(63)}` })).name,
      `z${'İ'.repeat(63)}`,
    );
  });

  it('stores names in Unicode NFC, so canonically equal names are the same name', async () => {
    const decomposed = 'Cafe\u0301';
    const wgId = await newWorkgroup(c, decomposed);
    const wg = assertOk(await c.workgroups.get(wgId));
    assert.equal(wg.name, 'Caf\u00e9');
    const provider = wg.cloud_provider_id!;
    assertError(
      await c.workgroups.create({ cloud_provider_id: provider, name: 'CAF\u00c9' }),
      409,
      'Bad-Request',
      'name',
    );
    const ws = assertOk(await c.workspaces.create(wgId, { name: 'A\u030angstr\u00f6m' }));
    assert.equal(ws.name, '\u00c5ngstr\u00f6m');
    assert.equal(ws.database_name, '\u00c5ngstr\u00f6m-db');
    const key = assertOk(await c.apiKeys.create({ key_name: 'ke\u0301y', role: 'viewer' }));
    assert.equal(key.key_name, 'k\u00e9y');
    assertError(await c.apiKeys.create({ key_name: 'k\u00e9y', role: 'viewer' }), 409, 'Bad-Request', 'key_name');
    assertOk(await c.apiKeys.revoke('ke\u0301y'));
  });

  it('refuses control and bidirectional formatting characters in every name, naming the field', async () => {
    const wgId = await newWorkgroup(c, 'safe');
    const provider = assertOk(await c.workgroups.get(wgId)).cloud_provider_id!;
    const ws = assertOk(await c.workspaces.create(wgId, { name: 'safe-ws' }));
    const byoc = assertOk(
      await c.cloudProviders.create({ name: 'safe-byoc', platform: 'aws', region: 'us-east-1', role_arn: ARN }),
    );
    for (const bad of UNSAFE) {
      assertError(await c.workgroups.create({ cloud_provider_id: provider, name: bad }), 400, 'Bad-Request', 'name');
      assertError(await c.workgroups.update(wgId, { workgroup_name: bad }), 400, 'Bad-Request', 'workgroup_name');
      assertError(await c.workspaces.create(wgId, { name: bad }), 400, 'Bad-Request', 'name');
      assertError(
        await c.workspaces.create(wgId, { name: `ok-${orgs}`, database_name: bad }),
        400,
        'Bad-Request',
        'database_name',
      );
      assertError(
        await c.workspaces.update(wgId, ws.workspace_id!, { workspace_name: bad }),
        400,
        'Bad-Request',
        'workspace_name',
      );
      assertError(
        await c.databases.rename(wgId, ws.database_id!, { tg_database_name: bad }),
        400,
        'Bad-Request',
        'tg_database_name',
      );
      const registration = { platform: 'aws' as const, region: 'us-east-1', role_arn: ARN };
      assertError(await c.cloudProviders.create({ ...registration, name: bad }), 400, 'Bad-Request', 'name');
      assertError(
        await c.cloudProviders.create({ ...registration, name: 'fine', created_by: bad }),
        400,
        'Bad-Request',
        'created_by',
      );
      assertError(await c.cloudProviders.update(byoc.id, { name: bad }), 400, 'Bad-Request', 'name');
      assertError(await c.apiKeys.create({ key_name: bad, role: 'viewer' }), 400, 'Bad-Request', 'key_name');
    }
    // Nothing was created or renamed.
    assert.deepEqual(
      resultOf(await c.workspaces.list(wgId)).map((w) => w.name),
      ['safe-ws'],
    );
    assert.equal(assertOk(await c.workgroups.get(wgId)).name, 'safe');
    assert.equal(assertOk(await c.cloudProviders.get(byoc.id)).name, 'safe-byoc');
    assert.deepEqual(
      assertOk(await c.databases.list(wgId)).map((d) => d.name),
      ['safe-ws-db'],
    );
  });

  it('never splits a surrogate pair when it derives a database name', async () => {
    const wgId = await newWorkgroup(c);
    // 64 characters, 127 UTF-16 units: "<name>-db" cut at 64 units would end in half an emoji.
    const name = `x${'\u{1F333}'.repeat(63)}`;
    const ws = assertOk(await c.workspaces.create(wgId, { name }));
    assert.equal(ws.name, name);
    assert.equal(ws.database_name, name);
    assert.equal(assertOk(await c.databases.list(wgId))[0]!.name, name);
  });
});
