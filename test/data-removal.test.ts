import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient, type OperationRecord } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForDeletion } from './helpers/workspaces.js';

// Deleting a backup or a database removes its row at once; the driver removes the data it
// held in an operation of its own, so a driver that keeps real data frees its storage.
describe(`data of deleted backups and databases (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
    c = server.client;
    wg = await newWorkgroup(c);
  });
  after(() => server.close());

  /** The operations on a resource once none of them is pending or running. */
  async function settled(resourceId: string): Promise<OperationRecord[]> {
    for (let i = 0; i < 200; i++) {
      const ops = resultOf(await c.operations.list({ resource_id: resourceId }));
      if (ops.length > 0 && ops.every((o) => o.state === 'succeeded' || o.state === 'failed')) return ops;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`operations on ${resourceId} did not finish`);
  }

  it('a deleted backup has its data removed by the driver', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'backed-up' });
    const backup = assertOk(await c.backups.create(wg, ws.workspace_id!, { tag: 'one' }));
    await settled(backup.id);
    assert.equal(assertOk(await c.backups.delete(wg, ws.workspace_id!, { backup_id: backup.id })), backup.id);
    const ops = await settled(backup.id);
    assert.deepEqual(
      ops.map((o) => [o.kind, o.state, o.params]),
      [
        ['backup.create', 'succeeded', { workspace_id: ws.workspace_id, automatic: false }],
        ['backup.delete', 'succeeded', { workspace_id: ws.workspace_id, database_id: ws.database_id }],
      ],
    );
  });

  it('a deleted database has its data removed by the driver', async () => {
    const ws = await activeWorkspace(c, wg, { name: 'short-lived' });
    assertOk(await c.workspaces.delete(wg, ws.workspace_id!));
    await waitForDeletion(c, wg, ws.workspace_id!);
    assertOk(await c.databases.delete(wg, ws.database_id!));
    const ops = await settled(ws.database_id!);
    assert.deepEqual(
      ops.map((o) => [o.kind, o.state, o.resource_type]),
      [['database.delete', 'succeeded', 'database']],
    );
  });
});
