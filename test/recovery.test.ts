import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

describe(`lost runtimes are recovered, and failed steps back off (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  const advance = async (seconds: number) => assertOk(await c.moveClock({ advance_seconds: seconds }));
  const ops = async (ws: string, kind: string) =>
    resultOf(await c.operations.list({ resource_id: ws })).filter((o) => o.kind === kind);

  before(async () => {
    server = await startTestServer({
      ACACIA_SIM_SPEED: '0',
      ACACIA_CLOCK: 'manual',
      ACACIA_FAULT_INJECTION: 'on',
      // Retries wait 2 s, 4 s, … even though simulated steps take no time.
      ACACIA_RETRY_BACKOFF: '2',
    });
    c = server.client;
    wg = await newWorkgroup(c);
  });
  after(() => server.close());

  it('recovers an Active workspace whose runtime the driver reports gone, showing it meanwhile', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'lost', x_test_env: 'fail:observe,slow:recover=60s' });
    const id = ws.workspace_id!;
    // The reconciler looks at Active workspaces every 30 s of the engine clock.
    await advance(30);
    const recovering = resultOf(await c.workspaces.get(wg, id));
    assert.deepEqual(
      [recovering.status, recovering.condition_type, recovering.display_status],
      ['Resuming', 'Recover', 'Starting'],
    );
    const [recover] = await ops(id, 'workspace.recover');
    assert.equal(recover?.state, 'pending');
    assert.match(String(recover!.params.reason), /runtime was lost: .*fail:observe/);

    // Its runtime is fine from now on: the recovery ends and no other starts.
    assertOk(await c.workspaces.update(wg, id, { x_test_env: '' }));
    await advance(60);
    assert.equal((await waitForStatus(c, wg, id, 'Active')).condition_type, 'Normal');
    await advance(120);
    const recoveries = await ops(id, 'workspace.recover');
    assert.deepEqual(
      recoveries.map((o) => o.state),
      ['succeeded'],
    );
    assert.equal(resultOf(await c.workspaces.get(wg, id)).status, 'Active');
  });

  it('a running workspace the driver finds well is left alone', async () => {
    const id = (await activeWorkspace(c, wg, { name: 'well' })).workspace_id!;
    const before = resultOf(await c.workspaces.get(wg, id)).version_number;
    await advance(300);
    assert.deepEqual(await ops(id, 'workspace.recover'), []);
    assert.equal(resultOf(await c.workspaces.get(wg, id)).version_number, before);
  });

  it('retries a failed step after ACACIA_RETRY_BACKOFF, doubling, whatever ACACIA_SIM_SPEED is', async () => {
    const created = assertOk(await c.workspaces.create(wg, { name: 'backing-off', x_test_env: 'fail:create' }));
    const id = created.workspace_id!;
    const waitForAttempts = async (attempts: number) => {
      for (let i = 0; i < 200; i++) {
        const [op] = await ops(id, 'workspace.create');
        if (op && op.attempt >= attempts && op.state !== 'running') return op;
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.fail(`no attempt ${attempts}`);
    };
    const first = await waitForAttempts(1);
    assert.equal(first.state, 'pending');
    assert.equal(Date.parse(first.run_at) - Date.parse(first.updated_at), 2000, 'the first retry waits 2 s');
    await advance(1);
    assert.equal((await ops(id, 'workspace.create'))[0]!.attempt, 1, 'not retried before its time');
    await advance(1);
    const second = await waitForAttempts(2);
    assert.equal(Date.parse(second.run_at) - Date.parse(second.updated_at), 4000, 'the second waits twice as long');
    await advance(4);
    const failed = await waitForStatus(c, wg, id, 'Failed');
    assert.match(failed.err_message!, /simulated create failure/);
    assert.equal((await ops(id, 'workspace.create'))[0]!.attempt, 3);
  });
});
