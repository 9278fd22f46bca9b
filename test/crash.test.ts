import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resultOf } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { serveProcess, stopProcess } from './helpers/serve.js';
import { freshStore, newKeyText, storeName, type StoreLocation } from './helpers/server.js';
import { newWorkgroup } from './helpers/workspaces.js';

// Realistic simulated durations, so operations are still in flight at the kill.
const serve = (store: StoreLocation, key: string) => serveProcess(store, key, { ACACIA_SIM_SPEED: '1' });

describe(`crash recovery (${storeName})`, () => {
  it('after SIGKILL with operations in flight, a restarted server brings each workspace to its target', async () => {
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
        ids.push(
          resultOf(await client.workspaces.create(wg, { name: `crash-ro-${i}`, is_rw: false, tg_database_id: db }))
            .workspace_id!,
        );
      }
      const inFlight = resultOf(await client.operations.list()).filter(
        (o) => o.state === 'pending' || o.state === 'running',
      );
      assert.equal(inFlight.length, 8, 'every create is still in flight at the kill');

      await stopProcess(child, 'SIGKILL');
      ({ child, client } = await serve(store, key));

      // Past every simulated duration and any lease the dead process held.
      assertOk(await client.moveClock({ advance_seconds: 300 }));
      const workspaces = resultOf(await client.workspaces.list(wg));
      assert.deepEqual(
        workspaces.map((w) => w.workspace_id).sort(),
        [...ids].sort(),
        'no workspace lost or duplicated',
      );
      assert.ok(
        workspaces.every((w) => w.status === 'Active'),
        JSON.stringify(workspaces.map((w) => w.status)),
      );
      assert.deepEqual(
        resultOf(await client.databases.list(wg))
          .map((d) => d.database_id)
          .sort(),
        [...databases].sort(),
        'no database lost or duplicated',
      );

      const ops = resultOf(await client.operations.list());
      assert.equal(ops.length, 8, 'one create operation per workspace');
      assert.deepEqual(new Set(ops.map((o) => o.resource_id)), new Set(ids));
      assert.ok(
        ops.every((o) => o.state === 'succeeded'),
        JSON.stringify(ops.map((o) => o.state)),
      );

      // The restarted server keeps serving the lifecycle.
      assertOk(await client.workspaces.pause(wg, ids[0]!));
      assertOk(await client.moveClock({ advance_seconds: 60 }));
      assert.equal(resultOf(await client.workspaces.get(wg, ids[0]!)).status, 'Stopped');
    } finally {
      await stopProcess(child, 'SIGKILL');
      await store.dispose();
    }
  });
});
