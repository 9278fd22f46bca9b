import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

// What a workspace asks for and what it runs at are kept apart: the record shows what runs
// (workspace_type, enable_ha, replicas), an update in flight shows what it asks for
// (desired_workspace_type), and only the driver's report of a finished step moves the first.
describe(`desired and observed size (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  const advance = async (seconds: number) => assertOk(await c.moveClock({ advance_seconds: seconds }));

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual', ACACIA_FAULT_INJECTION: 'on' });
    c = server.client;
    wg = await newWorkgroup(c);
  });
  after(() => server.close());

  it('a resize shows the size asked for beside the size that runs until the driver is done', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'asks', workspace_type_name: 'TG-1', x_test_env: 'slow:ha=60s' });
    const id = ws.workspace_id!;
    const updating = assertOk(await c.workspaces.update(wg, id, { workspace_type_name: 'TG-2', enable_ha: true }));
    assert.equal(updating.status, 'Updating');
    assert.deepEqual(updating.workspace_type, { typeName: 'TG-1', cpu: '8', memory: '64Gi', partition: 1, ha: 1 });
    assert.deepEqual([updating.enable_ha, updating.replicas], [false, 1], 'HA is what runs, not what is asked');
    assert.deepEqual(updating.desired_workspace_type, {
      typeName: 'TG-2',
      cpu: '16',
      memory: '128Gi',
      partition: 1,
      ha: 2,
    });
    // Asking, mid-resize, for the size it still runs at is a new change, refused while busy.
    assertError(await c.workspaces.update(wg, id, { workspace_type_name: 'TG-1' }), 409, 'Bad-Request', 'status');
    const still = assertOk(await c.workspaces.get(wg, id));
    assert.equal(still.desired_workspace_type?.typeName, 'TG-2', 'the refused request changed nothing');
    await advance(60);
    const done = await waitForStatus(c, wg, id, 'Active');
    assert.deepEqual(done.workspace_type, { typeName: 'TG-2', cpu: '16', memory: '128Gi', partition: 1, ha: 2 });
    assert.deepEqual([done.enable_ha, done.replicas], [true, 2]);
    assert.equal(done.desired_workspace_type, undefined, 'nothing is asked beyond what runs');
  });

  it('a failed resize reports the size the workspace runs at; resume asks for it again', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'fails', workspace_type_name: 'TG-1', x_test_env: 'fail:resize' });
    const id = ws.workspace_id!;
    const updating = assertOk(await c.workspaces.update(wg, id, { workspace_type_name: 'TG-2' }));
    assert.equal(updating.desired_workspace_type?.typeName, 'TG-2');

    const failed = await waitForStatus(c, wg, id, 'Failed');
    assert.match(failed.err_message!, /simulated resize failure/);
    assert.equal(failed.workspace_type?.typeName, 'TG-1', 'the workspace still runs at TG-1');
    assert.equal(failed.workspace_type?.memory, '64Gi');
    assert.equal(failed.desired_workspace_type, undefined, 'what the failed resize asked is given back');
    const listed = resultOf(await c.workspaces.list(wg)).find((w) => w.workspace_id === id)!;
    assert.equal(listed.workspace_type?.typeName, 'TG-1');

    // Resume of a Failed workspace re-runs what failed: the resize asks for TG-2 again.
    assertOk(await c.workspaces.update(wg, id, { x_test_env: '' }));
    const retried = assertOk(await c.workspaces.resume(wg, id));
    assert.equal(retried.status, 'Updating');
    assert.equal(retried.desired_workspace_type?.typeName, 'TG-2');
    const resized = await waitForStatus(c, wg, id, 'Active');
    assert.equal(resized.workspace_type?.typeName, 'TG-2');
  });

  it('quotas count the larger of what runs and what is asked while an update runs', async () => {
    // paid: 5120 GB. Two RW TG-16 with HA use 4096 GB.
    const paid = await server.orgClient('desired-quota', { tier: 'paid' });
    const group = await newWorkgroup(paid);
    const big = await activeWorkspace(paid, group, {
      name: 'big',
      workspace_type_name: 'TG-16',
      enable_ha: true,
      x_test_env: 'slow:resize=60s',
    });
    await activeWorkspace(paid, group, { name: 'other', workspace_type_name: 'TG-16', enable_ha: true });
    // Shrinking is never refused by the memory quota, whatever else uses memory.
    assertOk(await paid.workspaces.update(group, big.workspace_id!, { workspace_type_name: 'TG-1' }));

    // While it shrinks it still holds 2048 GB: 2048 more would be 6144 GB.
    const reader = { name: 'reader', is_rw: false, tg_database_id: big.database_id!, enable_ha: true };
    const refused = assertError(
      await paid.workspaces.create(group, { ...reader, workspace_type_name: 'TG-16' }),
      403,
      'Quota-Exceed',
      'workspace_type_name',
    );
    assert.match(refused.Reason, /6144 GB/);

    await advance(60);
    assert.equal((await waitForStatus(paid, group, big.workspace_id!, 'Active')).workspace_type?.typeName, 'TG-1');
    assertOk(await paid.workspaces.create(group, { ...reader, workspace_type_name: 'TG-16' }));
  });
});
