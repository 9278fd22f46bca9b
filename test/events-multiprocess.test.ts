import assert from 'node:assert/strict';
import * as nodeTest from 'node:test';
import { describe } from 'node:test';
import { resultOf } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
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

describe(`event streams and keys changed by another process (${storeName})`, () => {
  // PostgreSQL announces a key's change to every process (LISTEN); SQLite does not, and a
  // stream finds it when it next looks at its key, on its heartbeat (made short here).
  const heartbeat: Record<string, string> = storeName === 'postgres' ? {} : { ACACIA_EVENTS_HEARTBEAT_SECONDS: '1' };

  nodeTest.it('a stream on one process ends when its key is revoked through the other', async () => {
    const store = await freshStore();
    const key = newKeyText();
    const servers: ServeProcess[] = [];
    try {
      for (let i = 0; i < 2; i++)
        servers.push(await serveProcess(store, key, { ACACIA_SIM_SPEED: '0', ...(i === 1 ? heartbeat : {}) }));
      const [a, b] = servers as [ServeProcess, ServeProcess];
      const watcher = assertOk(await a.client.apiKeys.create({ key_name: 'watcher', role: 'viewer' })).plaintext_key!;
      const stream = await openEventStream(b.url, watcher);
      const first = await newWorkgroup(a.client);
      await stream.until((s) => s.events.some((e) => e.resource_id === first));

      assertOk(await a.client.apiKeys.revoke('watcher'));
      // On PostgreSQL well before the heartbeat (15 s): the revocation's announcement wakes it.
      await stream.until((s) => s.closed, 5000);
      assert.deepEqual(stream.errors, ['the API key has been revoked']);
      await newWorkgroup(a.client);
      assert.deepEqual(
        stream.events.map((e) => e.resource_id),
        [first],
        'no event after the revocation',
      );
      stream.close();
    } finally {
      await Promise.all(servers.map((s) => stopProcess(s.child, 'SIGKILL')));
      await store.dispose();
    }
  });
});
