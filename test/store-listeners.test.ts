import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'node:test';
import pg from 'pg';
import { resultOf, type AcaciaClient, type ApiResponse } from '../src/client/index.js';
import { EVENT_LISTENER_NAME } from '../src/store/event-signals.js';
import { LISTENER_NAME } from '../src/store/key-cache.js';
import { POOL_SIZE } from '../src/store/store.js';
import { assertError } from './helpers/assert.js';
import { openEventStream, type OpenStream } from './helpers/event-stream.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { suiteUnless } from './helpers/skip.js';

const { it } = suiteUnless(storeName !== 'postgres' && 'needs PostgreSQL: SQLite holds no connections to lose');

const ROUNDS = 5;
const WORKERS = 6;
/** The connections a process listens on besides its pool: event signals and the API key cache. */
const LISTENERS = 2;

/** The server's connections, by application_name, as its database sees them. */
type Census = Record<string, number>;

const total = (census: Census) => Object.values(census).reduce((a, b) => a + b, 0);

/** Retries a request the store answered 503 (a connection lost under it), a few times. */
async function retried<T>(request: () => Promise<ApiResponse<T>>): Promise<T> {
  for (let i = 0; ; i++) {
    const res = await request();
    if (res.status !== 503 || i === 5) return resultOf(res);
    await sleep(100);
  }
}

/** Requests of several keys (each looked up, then kept) until `stop`, counting answers by status. */
async function load(clients: AcaciaClient[], provider: string, stop: () => boolean, statuses: Map<number, number>) {
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, id) => {
      const client = clients[id % clients.length]!;
      for (let step = 0; !stop(); step++) {
        const res =
          step % 3 === 0
            ? await client.workgroups.create({ cloud_provider_id: provider, name: `load-${id}-${step}` })
            : await client.workgroups.list();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
}

describe(`a process's PostgreSQL connections when its backends are terminated (${storeName})`, () => {
  it(
    'after rounds of terminations under load it listens on one connection of each kind, ' +
      'holds no more than its pool besides, and still serves and streams',
    { timeout: 180_000 },
    async (t) => {
      let server: TestServer | undefined;
      const admin = new pg.Client({ connectionString: process.env.ACACIA_TEST_DATABASE_URL });
      await admin.connect();
      let stream: OpenStream | undefined;
      let stopped = false;
      let loading: Promise<void> | undefined;
      try {
        server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_RATE_LIMIT: '0' });
        const srv = server;
        // Only this server's own database: others' tests share this PostgreSQL.
        const database = new URL(srv.store.databaseUrl!).pathname.slice(1);
        const census = async (): Promise<Census> => {
          const { rows } = await admin.query<{ name: string; n: number }>(
            `select application_name as name, count(*)::int as n from pg_stat_activity
              where datname = $1 and pid <> pg_backend_pid() group by 1`,
            [database],
          );
          return Object.fromEntries(rows.map((r) => [r.name, r.n]));
        };
        const terminate = async () =>
          (
            await admin.query(
              'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
              [database],
            )
          ).rowCount ?? 0;
        /** Waits (bounded) until both listeners are connected; the census then. */
        const listening = async (what: string): Promise<Census> => {
          for (let i = 0; ; i++) {
            const now = await census();
            if (now[EVENT_LISTENER_NAME] && now[LISTENER_NAME]) return now;
            assert.ok(i < 300, `${what}: both listeners back (${JSON.stringify(now)})`);
            await sleep(50);
          }
        };
        /** A new workgroup's event reaches a stream, opened again where the last one stopped (as a client does). */
        const streams = async (what: string) => {
          const last = stream?.events.at(-1)?.event_id;
          stream?.close();
          // Right after a termination the open may meet a connection that is already dead: the
          // store answers 503 (retry shortly), and a client opens it again, as the CLI's follow does.
          for (let i = 0; ; i++) {
            stream = await openEventStream(srv.url, srv.bootstrapKey, last ? { lastEventId: String(last) } : {});
            if (stream.status !== 503 || i === 5) break;
            assertError(
              { status: stream.status, body: stream.body } as ApiResponse<unknown>,
              503,
              'store-unavailable',
              'store',
            );
            stream.close();
            await sleep(100);
          }
          assert.equal(stream.status, 200, what);
          const wg = await retried(() => srv.client.workgroups.create({ cloud_provider_id: provider, name: what }));
          await stream.until((s) => s.events.some((e) => e.resource_id === wg.workgroup_id));
        };

        const provider = await publicProvider(srv.client);
        // Organisations of their own, so that the load does not fill the quotas of the one streamed.
        const clients = [await srv.orgClient('load-a'), await srv.orgClient('load-b'), await srv.orgClient('load-c')];
        const statuses = new Map<number, number>();
        loading = load(clients, provider, () => stopped, statuses);
        await streams('before');
        t.diagnostic(`before: ${JSON.stringify(await listening('before'))}`);

        for (let round = 1; round <= ROUNDS; round++) {
          const terminated = await terminate();
          const after = await listening(`round ${round}`);
          await streams(`round-${round}`);
          t.diagnostic(`round ${round}: terminated ${terminated}; then ${JSON.stringify(after)}`);
        }
        stopped = true;
        await loading;
        t.diagnostic(`answers by status ${JSON.stringify([...statuses])}`);

        // It still serves and streams.
        await streams('after');
        assert.ok(resultOf(await srv.client.workgroups.list()).some((w) => w.name === 'after'));
        const end = await census();
        t.diagnostic(`at the end: ${JSON.stringify(end)}`);
        assert.equal(end[EVENT_LISTENER_NAME], 1, 'one connection listens for events');
        assert.equal(end[LISTENER_NAME], 1, 'one connection listens for key changes');
        assert.ok(total(end) <= POOL_SIZE + LISTENERS, `no more than the pool and the listeners: ${total(end)}`);
        assert.ok((statuses.get(200) ?? 0) > 0);
      } finally {
        stopped = true;
        await loading?.catch(() => undefined);
        stream?.close();
        await server?.close();
        await admin.end();
      }
    },
  );
});
