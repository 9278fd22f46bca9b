import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import { freshStore, newKeyText, storeName } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';
import { suiteUnless } from './helpers/skip.js';

/** Runs `test` against two servers on one fresh store, sharing the bootstrap key and the manual clock. */
async function withTwoServers(test: (a: AcaciaClient, b: AcaciaClient) => Promise<void>): Promise<void> {
  const store = await freshStore();
  const key = newKeyText();
  const servers: ServeProcess[] = [];
  try {
    for (let i = 0; i < 2; i++) servers.push(await serveProcess(store, key, { ACACIA_SIM_SPEED: '0' }));
    await test(servers[0]!.client, servers[1]!.client);
  } finally {
    await Promise.all(servers.map((s) => stopProcess(s.child, 'SIGKILL')));
    await store.dispose();
  }
}

// Several processes share one PostgreSQL (DESIGN §10); SQLite's scale is one process.
const { it } = suiteUnless(storeName !== 'postgres' && 'needs PostgreSQL');

describe(`schedules across processes (${storeName})`, () => {
  it('two servers on one database fire each occurrence exactly once', () =>
    withTwoServers(async (a, b) => {
      assertOk(await a.moveClock({ now: '2055-09-06T00:00:00Z', skip_due: true }));
      const wg = await newWorkgroup(a);
      const ws = (await activeWorkspace(a, wg, { name: 'shared' })).workspace_id!;
      const pause = assertOk(
        await a.schedules.create(wg, ws, {
          repeat: 'daily',
          time: '20:00',
          timezone: 'Europe/Madrid',
          action: 'pause',
          workspace_id: ws,
        }),
      );
      const resume = assertOk(
        await b.schedules.create(wg, ws, {
          repeat: 'daily',
          time: '07:00',
          timezone: 'Europe/Madrid',
          action: 'resume',
          workspace_id: ws,
        }),
      );

      // Both processes move the shared clock over the same five days, racing for every occurrence.
      for (let day = 6; day <= 10; day++) {
        const target = `2055-09-${String(day + 1).padStart(2, '0')}T00:00:00Z`;
        await Promise.all([a.moveClock({ now: target }), b.moveClock({ now: target })]);
      }
      const ops = resultOf(await a.operations.list({ resource_id: ws }));
      const fired = (id: string) => ops.filter((o) => o.params.schedule_id === id);
      assert.equal(fired(pause.id).length, 5, 'five evenings, five pauses');
      assert.equal(fired(resume.id).length, 4, 'four mornings in between, four resumes');
      assert.ok(ops.every((o) => o.state === 'succeeded'));
      assert.equal(resultOf(await b.schedules.get(wg, ws, pause.id)).last_run?.occurrence_at, '2055-09-10T18:00:00Z');
    }));

  it('a key expires on every server once the shared clock passes its expiry', () =>
    withTwoServers(async (a, b) => {
      const shortLived = assertOk(
        await a.apiKeys.create({ key_name: 'short-lived', role: 'viewer', life_time_in_seconds: 60 }),
      ).plaintext_key!;
      assertOk(await b.withKey(shortLived).workgroups.list());
      assertOk(await a.moveClock({ advance_seconds: 61 }));
      // The first request b sees after the move is judged by the moved clock.
      assertError(await b.withKey(shortLived).workgroups.list(), 401, 'Unauthorized', 'x-api-key');
    }));
});
