import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { AcaciaClient } from '../src/client/index.js';
import type { EventRecord } from '../src/schemas/event.js';
import { assertOk } from './helpers/assert.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import { freshStore, newKeyText, storeName, type StoreLocation } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';
import { newWorkgroup } from './helpers/workspaces.js';

/**
 * A receiver on 127.0.0.1 that keeps each answer a moment (so sends of two processes would
 * overlap), notes how many POSTs each path has in flight at once, and holds every answer of a
 * path in `holding` until the process that sent it is gone.
 */
class Receiver {
  readonly received: Array<{ path: string; body: string }> = [];
  readonly holding = new Set<string>();
  /** The most POSTs one path had in flight at once. */
  readonly overlap = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = req.url ?? '/';
      this.received.push({ path: at, body: Buffer.concat(chunks).toString('utf8') });
      const now = (this.inFlight.get(at) ?? 0) + 1;
      this.inFlight.set(at, now);
      this.overlap.set(at, Math.max(now, this.overlap.get(at) ?? 0));
      const done = () => this.inFlight.set(at, this.inFlight.get(at)! - 1);
      if (this.holding.has(at)) return res.on('close', done);
      // The receiver's own pace, not a wait of the test: long enough for another send to arrive.
      setTimeout(() => {
        done();
        res.end();
      }, 20);
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(p: string): Array<{ path: string; body: string }> {
    return this.received.filter((r) => r.path === p);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls (real time) until check holds; deliveries are sent by the engines in the background. */
async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const giveUp = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > giveUp) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const env = { ACACIA_SIM_SPEED: '0', ACACIA_WEBHOOK_ALLOW_PRIVATE: 'on' };
const delivered = async (c: AcaciaClient, id: string, n: number) => {
  const d = assertOk(await c.webhooks.deliveries(id));
  return d.length === n && d.every((x) => x.state === 'delivered');
};

describe(`webhook deliveries across processes (${storeName})`, () => {
  const receiver = new Receiver();
  let store: StoreLocation;
  const key = newKeyText();
  const servers: ServeProcess[] = [];

  before(async () => {
    await receiver.start();
    store = await freshStore();
  });
  after(async () => {
    await Promise.all(servers.map((s) => stopProcess(s.child, 'SIGKILL')));
    await receiver.close();
    await store.dispose();
  });

  it('a process that dies mid-send leaves the delivery to be sent again once its lease ends, not before', async () => {
    const first = await serveProcess(store, key, env);
    servers.push(first);
    receiver.holding.add('/crash');
    const hook = assertOk(
      await first.client.webhooks.create({ url: `${receiver.url}/crash`, event_types: ['workgroup.created'] }),
    );
    await newWorkgroup(first.client);
    await until(async () => receiver.at('/crash').length === 1, 'the first POST');
    await stopProcess(first.child, 'SIGKILL');
    receiver.holding.delete('/crash');

    const second = await serveProcess(store, key, env);
    servers.push(second);
    const c = second.client;
    const [leased] = assertOk(await c.webhooks.deliveries(hook.webhook_id));
    assert.equal(leased!.state, 'pending');
    assert.equal(leased!.attempts, 1);
    const now = Date.parse(assertOk(await c.moveClock({ advance_seconds: 0 })).now);
    assert.equal(Date.parse(leased!.next_attempt_at!), now + 30_000, 'due again when the 30 s lease ends');
    assertOk(await c.moveClock({ advance_seconds: 29 }));
    assert.equal(receiver.at('/crash').length, 1, 'not sent again while the lease lasts');
    assertOk(await c.moveClock({ advance_seconds: 2 }));
    const [again] = assertOk(await c.webhooks.deliveries(hook.webhook_id));
    assert.equal(again!.state, 'delivered');
    assert.equal(again!.attempts, 2);
    assert.equal(receiver.at('/crash').length, 2);
    assert.equal(receiver.at('/crash')[1]!.body, receiver.at('/crash')[0]!.body, 'the same event again');
    await stopProcess(second.child, 'SIGKILL');
  });

  // Several processes share one PostgreSQL (DESIGN §10); SQLite's scale is one process.
  const { it: pgIt } = suiteUnless(storeName !== 'postgres' && 'needs PostgreSQL');

  pgIt('two processes sending together never have two of one webhook in flight, and keep its order', async () => {
    const a = await serveProcess(store, key, env);
    const b = await serveProcess(store, key, env);
    servers.push(a, b);
    const paths = ['/shared-0', '/shared-1', '/shared-2', '/shared-3'];
    const hooks: string[] = [];
    for (const p of paths)
      hooks.push(
        assertOk(await a.client.webhooks.create({ url: `${receiver.url}${p}`, event_types: ['workgroup.created'] }))
          .webhook_id,
      );
    // Each process's API wakes its own engine: both claim.
    for (let i = 0; i < 8; i++) await newWorkgroup(i % 2 === 0 ? a.client : b.client);
    for (const id of hooks) await until(() => delivered(a.client, id, 8), 'every delivery');
    for (const p of paths) {
      assert.equal(receiver.overlap.get(p), 1, `one POST at a time to ${p}`);
      const ids = receiver.at(p).map((r) => (JSON.parse(r.body) as EventRecord).event_id);
      assert.equal(ids.length, 8, `each event once to ${p}`);
      assert.deepEqual(
        ids,
        [...ids].sort((x, y) => x - y),
        `${p} got its events in order`,
      );
    }
  });
});
