import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { listeningUrl, spawnCli, storeEnv } from './helpers/cli.js';
import { freshStore, newKeyText, storeName, type StoreLocation } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

async function serve(store: StoreLocation, key: string): Promise<{ child: ChildProcess; client: AcaciaClient }> {
  const child = spawnCli(['serve'], { ...storeEnv(store), ACACIA_PORT: '0', ACACIA_GATEWAY_PORT: '0', ACACIA_BOOTSTRAP_API_KEY: key, ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
  try {
    return { child, client: new AcaciaClient({ baseUrl: await listeningUrl(child, { stdout: '', stderr: '' }), apiKey: key }) };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

// Several processes share one PostgreSQL (DESIGN §10); SQLite's scale is one process.
describe(`schedules across processes (${storeName})`, { skip: storeName !== 'postgres' && 'needs PostgreSQL' }, () => {
  it('two servers on one database fire each occurrence exactly once', async () => {
    const store = await freshStore();
    const key = newKeyText();
    const servers: Array<{ child: ChildProcess; client: AcaciaClient }> = [];
    try {
      servers.push(await serve(store, key));
      servers.push(await serve(store, key));
      const [a, b] = servers.map((s) => s.client) as [AcaciaClient, AcaciaClient];
      assertOk(await a.moveClock({ now: '2027-09-06T00:00:00Z', skip_due: true }));
      const wg = await newWorkgroup(a);
      const ws = (await activeWorkspace(a, wg, { name: 'shared' })).workspace_id!;
      const pause = assertOk(await a.schedules.create(wg, ws, { repeat: 'daily', time: '20:00', timezone: 'Europe/Madrid', action: 'pause', workspace_id: ws }));
      const resume = assertOk(await b.schedules.create(wg, ws, { repeat: 'daily', time: '07:00', timezone: 'Europe/Madrid', action: 'resume', workspace_id: ws }));

      // Both processes move the shared clock over the same five days, racing for every occurrence.
      for (let day = 6; day <= 10; day++) {
        const target = `2027-09-${String(day + 1).padStart(2, '0')}T00:00:00Z`;
        await Promise.all([a.moveClock({ now: target }), b.moveClock({ now: target })]);
      }
      const ops = resultOf(await a.operations.list(ws));
      const fired = (id: string) => ops.filter((o) => o.params.schedule_id === id);
      assert.equal(fired(pause.id).length, 5, 'five evenings, five pauses');
      assert.equal(fired(resume.id).length, 4, 'four mornings in between, four resumes');
      assert.ok(ops.every((o) => o.state === 'succeeded'));
      assert.equal(resultOf(await b.schedules.get(wg, ws, pause.id)).last_run?.occurrence_at, '2027-09-10T18:00:00Z');
    } finally {
      for (const s of servers) s.child.kill('SIGKILL');
      await Promise.all(servers.map((s) => new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.once('exit', r)))));
      await store.dispose();
    }
  });
});
