import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator } from 'kysely';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { migrations } from '../src/store/migrations/index.js';
import { findWorkspaceById } from '../src/store/repositories/workspaces.js';
import type { Store } from '../src/store/store.js';
import { assertError, assertOk } from './helpers/assert.js';
import { freshStore, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { openStoreOf } from './helpers/store-snapshot.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

// What a workspace asks for and what it runs at are kept apart: the record shows what runs
// (workspace_type, enable_ha, replicas), an update in flight shows what it asks for
// (desired_workspace_type), and only the driver's report of a finished step moves the first.
describe(`desired and observed size (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  let store: Store;
  const advance = async (seconds: number) => assertOk(await c.moveClock({ advance_seconds: seconds }));
  /** What the workspace's spec asks of an upgrade and a restore, as the driver's spec is built from it. */
  const asked = async (id: string) => {
    const row = await findWorkspaceById(store.db, id);
    return { upgrade: row?.upgrade_tg_version, restore: row?.restore_backup_id };
  };

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual', ACACIA_FAULT_INJECTION: 'on' });
    c = server.client;
    wg = await newWorkgroup(c);
    store = await openStoreOf(server.store);
  });
  after(async () => {
    await store.close();
    await server.close();
  });

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
      ha: 3,
    });
    // Asking, mid-resize, for the size it still runs at is a new change, refused while busy.
    assertError(await c.workspaces.update(wg, id, { workspace_type_name: 'TG-1' }), 409, 'Bad-Request', 'status');
    const still = assertOk(await c.workspaces.get(wg, id));
    assert.equal(still.desired_workspace_type?.typeName, 'TG-2', 'the refused request changed nothing');
    await advance(60);
    const done = await waitForStatus(c, wg, id, 'Active');
    assert.deepEqual(done.workspace_type, { typeName: 'TG-2', cpu: '16', memory: '128Gi', partition: 1, ha: 3 });
    assert.deepEqual([done.enable_ha, done.replicas], [true, 3]);
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

  it('an upgrade and a restore ask through the workspace spec while they run, and nothing once they end', async () => {
    const ws = await activeWorkspace(c, wg, {
      name: 'asks-spec',
      tg_version: '4.2.0',
      x_test_env: 'slow:upgrade=60s,slow:restore=60s',
    });
    const id = ws.workspace_id!;
    const upgrading = assertOk(
      await c.workspaces.update(wg, id, { desired_tg_version: '4.2.1', update_strategy: 'immediate' }),
    );
    assert.deepEqual([upgrading.status, upgrading.tg_version], ['Updating', '4.2.0'], 'the version is what runs');
    assert.equal(upgrading.desired_workspace_type, undefined, 'an upgrade asks no other size');
    assert.deepEqual(await asked(id), { upgrade: '4.2.1', restore: null });
    await advance(60);
    assert.equal((await waitForStatus(c, wg, id, 'Active')).tg_version, '4.2.1');
    assert.deepEqual(await asked(id), { upgrade: null, restore: null });

    const backup = assertOk(await c.backups.create(wg, id));
    for (let i = 0; i < 200; i++) {
      const listed = resultOf(await c.backups.listByWorkspace(id)).find((b) => b.id === backup.id);
      if (listed?.status === 'Succeeded') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assertOk(await c.backups.restore(wg, id, { backup_id: backup.id }));
    assert.deepEqual(await asked(id), { upgrade: null, restore: backup.id });
    assertOk(await c.workspaces.update(wg, id, { x_test_env: 'fail:restore' }));
    await advance(60);
    const failed = await waitForStatus(c, wg, id, 'Failed');
    assert.match(failed.err_message!, /simulated restore failure/);
    assert.deepEqual(await asked(id), { upgrade: null, restore: null }, 'what the failed restore asked is given back');

    // Resume of a Failed workspace re-runs the restore: it asks for the backup again.
    assertOk(await c.workspaces.update(wg, id, { x_test_env: 'slow:restore=60s' }));
    assert.equal(assertOk(await c.workspaces.resume(wg, id)).status, 'Restoring');
    assert.deepEqual(await asked(id), { upgrade: null, restore: backup.id });
    await advance(60);
    assert.equal((await waitForStatus(c, wg, id, 'Active')).snapshot_time, backup.time);
    assert.deepEqual(await asked(id), { upgrade: null, restore: null });
  });

  it('an upgrade in flight when the store is migrated asks on the workspace what its parameters asked', async () => {
    const location = await freshStore();
    const earlier = await startTestServer(
      { ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual', ACACIA_FAULT_INJECTION: 'on' },
      location,
    );
    try {
      const client = earlier.client;
      const group = await newWorkgroup(client);
      const ws = await activeWorkspace(client, group, { tg_version: '4.2.0', x_test_env: 'slow:upgrade=60s' });
      const id = ws.workspace_id!;
      const body = { desired_tg_version: '4.2.1', update_strategy: 'immediate' } as const;
      assert.equal(assertOk(await client.workspaces.update(group, id, body)).status, 'Updating');
      // The store as the version before kept it: the upgrade's version in its parameters only.
      const db = earlier.running.services.store.db;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      assert.equal((await migrator.migrateTo('0034-retention-indexes')).error, undefined);
      await earlier.restart();
      const row = await findWorkspaceById(earlier.running.services.store.db, id);
      assert.deepEqual([row?.upgrade_tg_version, row?.restore_backup_id], ['4.2.1', null]);
      // The engine ran while the store was migrated under it, so a step it had in hand may
      // have been retried with a backoff or started its 60-second wait again: the clock moves
      // on a minute at a time until the upgrade is through, for twenty minutes at most.
      for (let minute = 0; minute < 20; minute++) {
        assertOk(await client.moveClock({ advance_seconds: 60 }));
        const now = await client.waitForWorkspace(group, id, (w) => w.status !== 'Updating', { attempts: 50 });
        if (now?.status !== 'Updating') break;
      }
      assert.equal((await waitForStatus(client, group, id, 'Active')).tg_version, '4.2.1');
    } finally {
      await earlier.close();
      await location.dispose();
    }
  });
});
