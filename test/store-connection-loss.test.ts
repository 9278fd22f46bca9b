import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import pg from 'pg';
import { resultOf, type AcaciaClient, type ApiResponse } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import { freshStore, newKeyText, publicProvider, storeName } from './helpers/server.js';
import { waitForStatus } from './helpers/workspaces.js';

/** How long the load runs while the database's connections are terminated again and again. */
const LOAD_MS = 8_000;
const WORKERS = 6;
/** Milliseconds between two rounds of terminations. */
const KILL_EVERY_MS = [100, 400] as const;

const pgAdminUrl = process.env.ACACIA_TEST_DATABASE_URL;

/** What the load saw: answers by status, and anything that was not an envelope. */
interface Seen {
  statuses: Map<number, number>;
  problems: string[];
}

/** Checks one answer of the load: a success, a refusal of the load's own making, or a 503 for the lost connection. */
function check(seen: Seen, what: string, res: ApiResponse<unknown>): void {
  seen.statuses.set(res.status, (seen.statuses.get(res.status) ?? 0) + 1);
  if (res.status === 200) return;
  if (typeof res.body !== 'object' || res.body === null || res.body.Error !== true) {
    seen.problems.push(`${what}: ${res.status} without an envelope`);
    return;
  }
  const details = res.body.ErrorDetails.map((d) => `${d.Type}/${d.FieldName}`).join(',');
  if (res.status === 503) {
    if (details !== 'Internal-Error/store') seen.problems.push(`${what}: 503 ${details}`);
    if (res.headers['retry-after'] !== '1') seen.problems.push(`${what}: 503 without Retry-After`);
    return;
  }
  // Refusals the load itself provokes: a name taken meanwhile, a workgroup already gone, a
  // claimed Idempotency-Key whose answer was lost with the connection.
  if (
    (res.status === 409 && details.startsWith('Bad-Request/')) ||
    (res.status === 404 && details.startsWith('Not-Found/'))
  )
    return;
  seen.problems.push(`${what}: ${res.status} ${details} ${JSON.stringify(res.body.ErrorDetails)}`);
}

/** One worker of the mixed write load: creates, renames and deletes workgroups, adds allow-list entries, reads. */
async function work(client: AcaciaClient, provider: string, id: number, seen: Seen, until: number): Promise<void> {
  const mine: string[] = [];
  for (let step = 0; Date.now() < until; step++) {
    const what = `worker ${id} step ${step}`;
    try {
      const choice = randomInt(5);
      if (choice === 0 || mine.length === 0) {
        const res = await client.workgroups.create(
          { cloud_provider_id: provider, name: `w${id}-${step}` },
          step % 2 ? { idempotencyKey: `w${id}-${step}` } : {},
        );
        check(seen, `${what} create`, res);
        if (res.status === 200) mine.push(resultOf(res).workgroup_id);
      } else if (choice === 1) {
        check(
          seen,
          `${what} rename`,
          await client.workgroups.update(mine.at(-1)!, { workgroup_name: `r${id}-${step}` }),
        );
      } else if (choice === 2) {
        const res = await client.allowList.create(
          mine.at(-1)!,
          { cidr: `10.${id}.${step % 250}.0/24`, note: 'load' },
          { idempotencyKey: `a${id}-${step}` },
        );
        check(seen, `${what} allow`, res);
      } else if (choice === 3) {
        check(seen, `${what} list`, await client.workgroups.list());
      } else {
        const res = await client.workgroups.delete(mine.pop()!);
        check(seen, `${what} delete`, res);
      }
    } catch (err) {
      seen.problems.push(`${what}: no answer (${(err as Error).message})`);
    }
  }
}

describe(`database connection loss (${storeName})`, () => {
  it(
    'terminating the database connections under a write load fails ' +
      'only the requests in flight, with 503; the process stays up',
    {
      skip:
        storeName === 'sqlite'
          ? 'connection loss does not exist on SQLite: the store is a file the process itself opens'
          : false,
      timeout: 90_000,
    },
    async (t) => {
      const store = await freshStore();
      const database = new URL(store.databaseUrl!).pathname.slice(1);
      const admin = new pg.Client({ connectionString: pgAdminUrl });
      await admin.connect();
      const terminate = async () =>
        (
          await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [database],
          )
        ).rowCount ?? 0;
      let server: ServeProcess | undefined;
      try {
        const key = newKeyText();
        server = await serveProcess(store, key, { ACACIA_SIM_SPEED: '0', ACACIA_RATE_LIMIT: '0' });
        const client = server.client;
        const provider = await publicProvider(client);

        const seen: Seen = { statuses: new Map(), problems: [] };
        const until = Date.now() + LOAD_MS;
        const load = Promise.all(Array.from({ length: WORKERS }, (_, i) => work(client, provider, i + 1, seen, until)));
        let rounds = 0;
        let terminated = 0;
        while (Date.now() < until) {
          await sleep(randomInt(...KILL_EVERY_MS));
          terminated += await terminate();
          rounds++;
        }
        await load;
        t.diagnostic(
          `${rounds} rounds terminated ${terminated} connections; ` +
            `answers by status ${JSON.stringify([...seen.statuses])}`,
        );

        assert.equal(server.child.exitCode, null, `the process is still running: ${server.output.stderr}`);
        assert.equal(server.child.signalCode, null);
        assert.deepEqual(seen.problems, [], 'every answer was a success, a refusal of the load, or a 503 envelope');
        assert.ok(terminated > rounds, 'connections in use were terminated');
        assert.ok((seen.statuses.get(503) ?? 0) > 0, 'some requests in flight lost their connection');
        assert.ok((seen.statuses.get(200) ?? 0) > 0);
        assert.doesNotMatch(server.output.stderr, /Unhandled|uncaught/i);

        // Once the terminations stop (the last ones may still be reaching connections in use)
        // it serves normally: the pool has replaced what was broken.
        const ready = () => client.request<{ status: string }>('GET', '/readyz');
        for (let i = 0; (await ready()).status !== 200; i++) {
          assert.ok(i < 50, 'ready again after the terminations');
          await sleep(100);
        }
        const wg = assertOk(await client.workgroups.create({ cloud_provider_id: provider, name: 'after-the-storm' }));
        for (let i = 0; i < 20; i++) {
          assertOk(await client.workgroups.update(wg.workgroup_id, { workgroup_name: `after-the-storm-${i}` }));
          assert.equal(assertOk(await client.workgroups.get(wg.workgroup_id)).name, `after-the-storm-${i}`);
        }

        // While the database accepts no connection at all, the store is unreachable: /readyz
        // and every request say so, and say it again as soon as it is back.
        await admin.query(`alter database ${database} allow_connections false`);
        await terminate();
        const down = await ready();
        assertError(down, 503, 'Internal-Error', 'store');
        assertError(await client.workgroups.list(), 503, 'Internal-Error', 'store');
        const refused = await client.workgroups.create({ cloud_provider_id: provider, name: 'while-down' });
        assertError(refused, 503, 'Internal-Error', 'store');
        assert.equal(refused.headers['retry-after'], '1');
        await sleep(500);
        assertError(await ready(), 503, 'Internal-Error', 'store');

        await admin.query(`alter database ${database} allow_connections true`);
        assert.equal(assertOk(await ready()).status, 'ready');
        // The engine kept running: a workspace made now is provisioned.
        const ws = assertOk(await client.workspaces.create(wg.workgroup_id, { name: 'after' }));
        await waitForStatus(client, wg.workgroup_id, ws.workspace_id!, 'Active');
        assert.ok(!resultOf(await client.workgroups.list()).some((w) => w.name === 'while-down'));
        assert.equal(server.child.exitCode, null);
      } finally {
        await admin.query(`alter database ${database} allow_connections true`).catch(() => undefined);
        if (server) await stopProcess(server.child, 'SIGKILL');
        await admin.end();
        await store.dispose();
      }
    },
  );
});
