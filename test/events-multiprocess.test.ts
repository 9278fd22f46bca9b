import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { resultOf } from '../src/client/index.js';
import { openEventStream } from './helpers/event-stream.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import { freshStore, newKeyText, storeName } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';
import { newWorkgroup, waitForStatus } from './helpers/workspaces.js';

// Several processes share one PostgreSQL (DESIGN §10); SQLite's scale is one process.
const { it } = suiteUnless(storeName !== 'postgres' && 'needs PostgreSQL');

describe(`events across processes (${storeName})`, () => {
  it('an event written through one process reaches a stream opened on the other, in order', async () => {
    const store = await freshStore();
    const key = newKeyText();
    const servers: ServeProcess[] = [];
    try {
      // The safety-net poll is left at its default (seconds): delivery within the wait below is LISTEN/NOTIFY's.
      for (let i = 0; i < 2; i++) servers.push(await serveProcess(store, key, { ACACIA_SIM_SPEED: '0' }));
      const [a, b] = servers as [ServeProcess, ServeProcess];
      const stream = await openEventStream(b.url, key);
      const started = Date.now();
      const wg = await newWorkgroup(a.client);
      await stream.until((s) => s.events.some((e) => e.resource_id === wg), 2000);
      assert.ok(Date.now() - started < 2000);
      const ws = resultOf(await a.client.workspaces.create(wg, { name: 'elsewhere' })).workspace_id!;
      await waitForStatus(a.client, wg, ws, 'Active');
      await stream.until((s) => s.events.some((e) => e.type === 'workspace.status_changed' && e.resource_id === ws));
      const ids = stream.events.map((e) => e.event_id);
      assert.deepEqual(
        ids,
        [...new Set(ids)].sort((x, y) => x - y),
        'in order, none twice',
      );
      const page = resultOf(await a.client.events.list({ since: 0, limit: 1000 }));
      assert.deepEqual(
        ids,
        page.map((e) => e.event_id),
        'the stream on one process and the table agree',
      );
      stream.close();
    } finally {
      await Promise.all(servers.map((s) => stopProcess(s.child, 'SIGKILL')));
      await store.dispose();
    }
  });
});
