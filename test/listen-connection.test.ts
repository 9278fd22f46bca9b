import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import pg from 'pg';
import { ListenConnection, reconnectDelay, RECONNECT_BACKOFF } from '../src/store/listen-connection.js';
import { countingProxy, countingServer, unknownAuthentication } from './helpers/counting-server.js';
import { freshStore, storeName } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';

const NAME = 'acacia-test-listener';
/** Short pauses, so that the tests' losses are followed quickly by the next connection. */
const BACKOFF = { firstMs: 50, maxMs: 400 };

/** What a ListenConnection reported, and a way to wait for its n-th ready connection. */
function recorder() {
  const seen = { ready: 0, lost: 0, errors: [] as Error[], clients: [] as pg.Client[] };
  const waiters = new Set<() => void>();
  return {
    seen,
    options: {
      ready: (client: pg.Client) => {
        seen.ready++;
        seen.clients.push(client);
        for (const check of [...waiters]) check();
      },
      lost: () => void seen.lost++,
      onError: (err: Error) => void seen.errors.push(err),
    },
    readyCount: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (seen.ready < n) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
  };
}

describe(`a connection that listens (${storeName})`, () => {
  it('pauses after failed connections for longer each time, up to the cap', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 100].map((failures) => reconnectDelay(failures)),
      [500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000],
    );
    assert.equal(RECONNECT_BACKOFF.maxMs, 30_000);
  });

  it('a close while the connection is being made ends it and makes no other', async () => {
    // A server that accepts and never answers: the connect stays in flight. What it is sent
    // is read (and dropped), so that its end is seen.
    const server = await countingServer((socket) => socket.resume());
    const events = recorder();
    const connection = new ListenConnection({
      databaseUrl: `postgres://nobody@127.0.0.1:${server.port}/none`,
      channels: ['anything'],
      applicationName: NAME,
      backoff: BACKOFF,
      ...events.options,
    });
    try {
      connection.start();
      connection.start();
      while (server.seen.accepted === 0) await sleep(5);
      await connection.close();
      // Its socket is closed: the server sees it go.
      await server.allClosed();
      assert.equal(server.seen.accepted, 1, 'one connection, not one per start()');
      assert.equal(server.open.size, 0);
      assert.deepEqual([events.seen.ready, events.seen.lost], [0, 0]);
      assert.equal(connection.client, undefined);
      connection.start();
      assert.equal(connection.client, undefined, 'nothing starts after close');
    } finally {
      await server.close();
    }
  });

  it('connections refused one after another are made one at a time, each closed before the next', async () => {
    // A server that ends every connection at once, as a database refusing connections does.
    const server = await countingServer((socket) => socket.resume().end());
    const events = recorder();
    const connection = new ListenConnection({
      databaseUrl: `postgres://nobody@127.0.0.1:${server.port}/none`,
      channels: ['anything'],
      applicationName: NAME,
      backoff: { firstMs: 20, maxMs: 80 },
      ...events.options,
    });
    try {
      connection.start();
      while (server.seen.accepted < 5) {
        connection.start();
        await sleep(5);
      }
      await connection.close();
      await server.allClosed();
      assert.equal(server.seen.maxOpen, 1, 'never two connections at once');
      assert.equal(events.seen.ready, 0);
      // The last may have been cut short by the close, which is not a failure.
      assert.ok(events.seen.errors.length >= server.seen.accepted - 1, 'each failure reported');
    } finally {
      await server.close();
    }
  });

  it('a connect that fails on its own side (an authentication it cannot do) is closed too', async () => {
    const server = await countingServer(unknownAuthentication);
    const events = recorder();
    const connection = new ListenConnection({
      databaseUrl: `postgres://nobody:secret@127.0.0.1:${server.port}/none`,
      channels: ['anything'],
      applicationName: NAME,
      backoff: { firstMs: 20, maxMs: 80 },
      ...events.options,
    });
    try {
      connection.start();
      while (events.seen.errors.length < 3) await sleep(5);
      await connection.close();
      await server.allClosed();
      assert.match(events.seen.errors[0]!.message, /SASL/);
      assert.equal(server.seen.maxOpen, 1, 'each failed connection closed before the next');
    } finally {
      await server.close();
    }
  });
});

const pgOnly = suiteUnless(storeName !== 'postgres' && 'needs PostgreSQL');

describe(`a connection that listens, on PostgreSQL (${storeName})`, () => {
  pgOnly.it(
    'each terminated backend is one loss and one new connection: never two at once',
    { timeout: 60_000 },
    async () => {
      const store = await freshStore();
      const database = new URL(store.databaseUrl!).pathname.slice(1);
      const proxy = await countingProxy(store.databaseUrl!);
      const sql = new pg.Client({ connectionString: store.databaseUrl });
      await sql.connect();
      /** The test database's connections other than `sql`, by application_name. */
      const others = async () =>
        (
          await sql.query<{ name: string }>(
            'select application_name as name from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [database],
          )
        ).rows.map((r) => r.name);
      const events = recorder();
      const notified: string[] = [];
      const connection = new ListenConnection({
        databaseUrl: proxy.url,
        channels: ['acacia_test_a', 'acacia_test_b'],
        applicationName: NAME,
        backoff: BACKOFF,
        onNotification: (message) => notified.push(`${message.channel} ${message.payload}`),
        ...events.options,
      });
      try {
        connection.start();
        await events.readyCount(1);
        assert.deepEqual(await others(), [NAME], 'named once it listens');
        for (let round = 1; round <= 5; round++) {
          const stale = connection.client!;
          const { rowCount } = await sql.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [database],
          );
          assert.equal(rowCount, 1);
          // Uses during the pause (as a request would) start nothing more.
          connection.start();
          await events.readyCount(round + 1);
          connection.start();
          // Giving up a connection already gone changes nothing.
          connection.lose(stale);
          assert.deepEqual(await others(), [NAME], `round ${round}: one connection`);
        }
        assert.deepEqual([events.seen.ready, events.seen.lost], [6, 5], 'one loss and one new connection per round');
        assert.equal(proxy.seen.accepted, 6);
        assert.equal(proxy.seen.maxOpen, 1, 'never two connections at once');
        assert.equal(new Set(events.seen.clients).size, 6);
        assert.equal(connection.client, events.seen.clients.at(-1));

        // The connection left listens on both channels.
        await sql.query("notify acacia_test_a, 'one'; notify acacia_test_b, 'two'");
        while (notified.length < 2) await sleep(5);
        assert.deepEqual(notified, ['acacia_test_a one', 'acacia_test_b two']);

        // A consumer giving it up (a statement on it failed) is one more loss, then a new one.
        connection.lose(connection.client!, new Error('a statement failed'));
        assert.equal(events.seen.lost, 6, 'said at once');
        assert.equal(connection.client, undefined);
        await events.readyCount(7);
        assert.equal(proxy.seen.maxOpen, 1);

        await connection.close();
        assert.equal(events.seen.lost, 7);
        await proxy.allClosed();
        for (let i = 0; (await others()).length > 0; i++) {
          assert.ok(i < 100, 'its backend ends once it is closed');
          await sleep(20);
        }
      } finally {
        await connection.close();
        await sql.end();
        await proxy.close();
        await store.dispose();
      }
    },
  );

  pgOnly.it('a close while connecting to PostgreSQL leaves no connection behind', { timeout: 30_000 }, async () => {
    const store = await freshStore();
    const database = new URL(store.databaseUrl!).pathname.slice(1);
    const proxy = await countingProxy(store.databaseUrl!);
    const admin = new pg.Client({ connectionString: process.env.ACACIA_TEST_DATABASE_URL });
    await admin.connect();
    try {
      for (let i = 0; i < 5; i++) {
        const events = recorder();
        const connection = new ListenConnection({
          databaseUrl: proxy.url,
          channels: ['acacia_test'],
          applicationName: NAME,
          backoff: BACKOFF,
          ...events.options,
        });
        connection.start();
        // Closed at once and later at each round, so the connect, the LISTEN or the naming is in flight.
        if (i > 0) await sleep(i * 2);
        await connection.close();
        assert.equal(events.seen.ready, events.seen.lost, 'a connection made ready was lost with the close');
      }
      await proxy.allClosed();
      assert.equal(proxy.open.size, 0);
      for (let i = 0; ; i++) {
        const { rows } = await admin.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [database],
        );
        if (rows[0]!.n === 0) break;
        assert.ok(i < 100, 'the backends end once their connections are closed');
        await sleep(20);
      }
    } finally {
      await admin.end();
      await proxy.close();
      await store.dispose();
    }
  });
});
