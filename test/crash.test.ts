import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { listeningUrl, spawnCli, storeEnv } from './helpers/cli.js';
import { freshStore, newKeyText, storeName, type StoreLocation } from './helpers/server.js';
import { newWorkgroup } from './helpers/workspaces.js';

async function serve(store: StoreLocation, key: string): Promise<{ child: ChildProcess; client: AcaciaClient }> {
  const child = spawnCli(['serve'], {
    ...storeEnv(store), ACACIA_PORT: '0', ACACIA_GATEWAY_PORT: '0', ACACIA_BOOTSTRAP_API_KEY: key,
    ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '1',
  });
  try {
    const url = await listeningUrl(child, { stdout: '', stderr: '' });
    return { child, client: new AcaciaClient({ baseUrl: url, apiKey: key }) };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}

describe(`crash recovery (${storeName})`, () => {
  it('after SIGKILL with operations in flight, a restarted server brings every workspace to its target once', async () => {
    const store = await freshStore();
    const key = newKeyText();
    let { child, client } = await serve(store, key);
    try {
      const wg = await newWorkgroup(client, 'crash');
      const ids: string[] = [];
      const databases: string[] = [];
      for (let i = 0; i < 4; i++) {
        const ws = resultOf(await client.workspaces.create(wg, { name: `crash-rw-${i}` }));
        ids.push(ws.workspace_id!);
        databases.push(ws.database_id!);
      }
      // Half-way through provisioning (90 simulated seconds), attach a reader to each database.
      assertOk(await client.moveClock({ advance_seconds: 45 }));
      for (const [i, db] of databases.entries()) {
        ids.push(resultOf(await client.workspaces.create(wg, { name: `crash-ro-${i}`, is_rw: false, tg_database_id: db })).workspace_id!);
      }
      const inFlight = resultOf(await client.operations.list()).filter((o) => o.state === 'pending' || o.state === 'running');
      assert.equal(inFlight.length, 8, 'every create is still in flight at the kill');

      await kill(child, 'SIGKILL');
      ({ child, client } = await serve(store, key));

      // Past every simulated duration and any lease the dead process held.
      assertOk(await client.moveClock({ advance_seconds: 300 }));
      const workspaces = resultOf(await client.workspaces.list(wg));
      assert.deepEqual(workspaces.map((w) => w.workspace_id).sort(), [...ids].sort(), 'no workspace lost or duplicated');
      assert.ok(workspaces.every((w) => w.status === 'Active'), JSON.stringify(workspaces.map((w) => w.status)));
      assert.deepEqual(resultOf(await client.databases.list(wg)).map((d) => d.database_id).sort(), [...databases].sort(), 'no database lost or duplicated');

      const ops = resultOf(await client.operations.list());
      assert.equal(ops.length, 8, 'one create operation per workspace');
      assert.deepEqual(new Set(ops.map((o) => o.resource_id)), new Set(ids));
      assert.ok(ops.every((o) => o.state === 'succeeded'), JSON.stringify(ops.map((o) => o.state)));

      // The restarted server keeps serving the lifecycle.
      assertOk(await client.workspaces.pause(wg, ids[0]!));
      assertOk(await client.moveClock({ advance_seconds: 60 }));
      assert.equal(resultOf(await client.workspaces.get(wg, ids[0]!)).status, 'Stopped');
    } finally {
      await kill(child, 'SIGKILL');
      await store.dispose();
    }
  });
});
