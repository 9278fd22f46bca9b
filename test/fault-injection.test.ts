import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

const ARN = 'arn:aws:iam::123456789012:role/acacia/provisioner';
const provider = (extra: Record<string, unknown>) => ({
  platform: 'aws' as const,
  region: 'us-east-1',
  role_arn: ARN,
  ...extra,
});

describe(`fault injection is off unless the operator turns it on (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;

  before(async () => {
    server = await startTestServer({ ACACIA_FAULT_INJECTION: 'off', ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
    c = server.client;
  });
  after(() => server.close());

  it('refuses x_test_env on workspace create and update, provider create and validate, changing nothing', async () => {
    const wg = await newWorkgroup(c);
    const refused = assertError(
      await c.workspaces.create(wg, { name: 'faulty', x_test_env: 'fail:create' }),
      400,
      'Bad-Request',
      'x_test_env',
    );
    assert.match(refused.Reason, /ACACIA_FAULT_INJECTION=on/);
    assert.deepEqual(resultOf(await c.workspaces.list(wg)), [], 'nothing was created');

    const ws = await activeWorkspace(c, wg, { name: 'plain' });
    assertError(
      await c.workspaces.update(wg, ws.workspace_id!, { x_test_env: 'slow:resize=99999999999999h' }),
      400,
      'Bad-Request',
      'x_test_env',
    );
    const after = assertOk(await c.workspaces.get(wg, ws.workspace_id!));
    assert.equal(after.version_number, ws.version_number, 'the refused update changed nothing');
    // Clearing it is no fault injection, so it is accepted.
    assertOk(await c.workspaces.update(wg, ws.workspace_id!, { x_test_env: '' }));

    const before = resultOf(await c.cloudProviders.list()).length;
    assertError(
      await c.cloudProviders.create(provider({ name: 'faulty-byoc', x_test_env: 'fail:provision' })),
      400,
      'Bad-Request',
      'x_test_env',
    );
    assert.equal(resultOf(await c.cloudProviders.list()).length, before, 'no provider was registered');
    assertError(
      await c.cloudProviders.validate(provider({ x_test_env: 'fail:validate' })),
      400,
      'Bad-Request',
      'x_test_env',
    );
  });
});

describe(`fault injection, when on, is bounded (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;

  before(async () => {
    server = await startTestServer({ ACACIA_FAULT_INJECTION: 'on', ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
    c = server.client;
  });
  after(() => server.close());

  it('refuses delays over 24 hours and graph sizes over the largest size, on create and update', async () => {
    const wg = await newWorkgroup(c);
    for (const env of [
      'slow:resize=99999999999999h',
      'slow:create=25h',
      'slow:pause=86401s',
      'topology=99999999999999GiB',
      'topology=4097GiB',
    ]) {
      const refused = assertError(
        await c.workspaces.create(wg, { name: 'too-much', x_test_env: env }),
        400,
        'Bad-Request',
        'x_test_env',
      );
      assert.match(refused.Reason, /out of bounds/, env);
    }
    assert.deepEqual(resultOf(await c.workspaces.list(wg)), []);

    const largest = await activeWorkspace(c, wg, { name: 'largest', x_test_env: 'topology=4096GiB' });
    assert.equal(largest.graph_topology_size_bytes, 4096 * 1024 ** 3);
    const ws = await activeWorkspace(c, wg, { name: 'bounded', x_test_env: 'slow:resize=24h' });
    assertError(
      await c.workspaces.update(wg, ws.workspace_id!, { x_test_env: 'slow:resize=99999999999999h' }),
      400,
      'Bad-Request',
      'x_test_env',
    );
    assertError(
      await c.cloudProviders.create(provider({ name: 'slow-byoc', x_test_env: 'slow:provision=1000000h' })),
      400,
      'Bad-Request',
      'x_test_env',
    );

    // The longest delay allowed still ends, and the organisation's operations list stays whole.
    const id = ws.workspace_id!;
    assert.equal(assertOk(await c.workspaces.update(wg, id, { workspace_type_name: 'TG-1' })).status, 'Updating');
    assertOk(await c.operations.list());
    assertOk(await c.moveClock({ advance_seconds: 24 * 3600 }));
    await waitForStatus(c, wg, id, 'Active');
  });

  it('lists operations even when a stored time is beyond what RFC 3339 can write', async () => {
    const wg = await newWorkgroup(c);
    const ws = await activeWorkspace(c, wg, { name: 'far-future' });
    // A time the old unbounded `slow:` directives could store: a valid bigint, not a valid Date.
    const { db } = server.running.services.store;
    await db.updateTable('operations').set({ run_at: 1e17 }).where('resource_id', '=', ws.workspace_id!).execute();
    const listed = assertOk(await c.operations.list({ resource_id: ws.workspace_id! }));
    assert.ok(listed.length > 0);
    assert.equal(listed[0]!.run_at, '9999-12-31T23:59:59Z');
    assertOk(await c.operations.list());
  });
});

describe(`a server with fault injection off ignores directives stored while it was on (${storeName})`, () => {
  it('pauses a workspace whose x_test_env says fail:pause once the setting is off', async () => {
    const on = await startTestServer({ ACACIA_FAULT_INJECTION: 'on', ACACIA_SIM_SPEED: '0' });
    let off: TestServer | undefined;
    try {
      const wg = await newWorkgroup(on.client);
      const ws = await activeWorkspace(on.client, wg, { name: 'was-faulty', x_test_env: 'fail:pause' });
      await on.running.close();
      off = await startTestServer(
        { ACACIA_FAULT_INJECTION: 'off', ACACIA_SIM_SPEED: '0', ACACIA_BOOTSTRAP_API_KEY: on.bootstrapKey },
        on.store,
      );
      const client = new AcaciaClient({ baseUrl: off.url, apiKey: on.bootstrapKey });
      assertOk(await client.workspaces.pause(wg, ws.workspace_id!));
      await waitForStatus(client, wg, ws.workspace_id!, 'Stopped');
    } finally {
      await off?.close();
      await on.close();
    }
  });
});
