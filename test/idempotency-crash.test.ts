import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { API_PREFIX } from '../src/schemas/envelope.js';
import type { Store } from '../src/store/store.js';
import { assertOk } from './helpers/assert.js';
import { requestBytes } from './helpers/raw-http.js';
import { serveProcess, stopProcess, type ServeProcess } from './helpers/serve.js';
import { freshStore, newKeyText, storeName, type StoreLocation } from './helpers/server.js';
import { openStoreOf } from './helpers/store-snapshot.js';

/** Past the time after which a claim without an answer is taken for a dead process's. */
const PAST_CLAIM_EXPIRY = 5 * 60 + 1;

/** Polls `check` every few milliseconds until it holds, for at most `ms`. */
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

/**
 * Sends a request on a connection of its own and never reads the answer: the client of a
 * server that dies before it could acknowledge. Returns the socket, to close later.
 */
function sendUnread(url: string, bytes: Buffer): net.Socket {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  socket.on('error', () => undefined);
  socket.on('connect', () => socket.write(bytes));
  return socket;
}

interface Setup {
  store: StoreLocation;
  key: string;
  server: ServeProcess;
  reader: Store;
  installed: string;
}

async function setUp(): Promise<Setup> {
  const store = await freshStore();
  const key = newKeyText();
  const server = await serveProcess(store, key);
  const addon = resultOf(await server.client.addons.catalog())[0]!.addons_id;
  const installed = assertOk(await server.client.addons.install(addon, { enable: 'true' })).id;
  return { store, key, server, reader: await openStoreOf(store), installed };
}

const configBody = (name: string) => ({ config_name: name, config_value: 'v' });

/** The raw request that creates an add-on config under an Idempotency-Key. */
function createConfig(s: Setup, name: string, idempotencyKey: string): Buffer {
  return requestBytes(
    'POST',
    `${API_PREFIX}/add-ons/${s.installed}/configs`,
    [
      ['host', 'acacia'],
      ['x-api-key', s.key],
      ['x-request-id', `first-${idempotencyKey}`],
      ['content-type', 'application/json'],
      ['idempotency-key', idempotencyKey],
    ],
    Buffer.from(JSON.stringify(configBody(name))),
  );
}

const configsNamed = (s: Setup, name: string) =>
  s.reader.db.selectFrom('addon_configs').select('id').where('config_name', '=', name).execute();

const answerOf = (s: Setup, idempotencyKey: string) =>
  s.reader.db
    .selectFrom('idempotency_keys')
    .select(['status_code', 'response_body'])
    .where('key', '=', idempotencyKey)
    .executeTakeFirst();

/** Starts the server again on the same store and moves past the claim expiry. */
async function restart(s: Setup): Promise<AcaciaClient> {
  s.server = await serveProcess(s.store, s.key);
  assertOk(await s.server.client.moveClock({ advance_seconds: PAST_CLAIM_EXPIRY }));
  return s.server.client;
}

async function tearDown(s: Setup | undefined): Promise<void> {
  if (!s) return;
  await stopProcess(s.server.child, 'SIGKILL');
  await s.reader.close();
  await s.store.dispose();
}

/**
 * Makes the server stop, for good, at the moment it records the answer of an idempotent
 * request: a trigger on the test's own store that sleeps (PostgreSQL) or computes for
 * minutes (SQLite, which has no sleep) when an answer is written. Resolves once the server
 * is in it. Nothing of this is in Acacia; it lives in the test's database only.
 */
async function stallWhenAnswerIsWritten(s: Setup): Promise<() => Promise<void>> {
  if (storeName === 'postgres') {
    await sql`create function test_stall() returns trigger language plpgsql as $$
      begin perform pg_sleep(600); return new; end $$`.execute(s.reader.db);
    await sql`create trigger test_stall before update on idempotency_keys for each row
      when (new.status_code is not null) execute function test_stall()`.execute(s.reader.db);
    return async () => {
      await until('the server to be stalled in the trigger', async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event = 'PgSleep'`.execute(s.reader.db);
        return rows[0]!.n > 0;
      });
    };
  }
  await sql`create table test_stall_rows (x integer)`.execute(s.reader.db);
  await sql`insert into test_stall_rows
    select value from json_each(${JSON.stringify(Array.from({ length: 3000 }, (_, i) => i))})`.execute(s.reader.db);
  await sql`create trigger test_stall before update on idempotency_keys
    when new.status_code is not null begin
      select count(*) from test_stall_rows a, test_stall_rows b, test_stall_rows c;
    end`.execute(s.reader.db);
  return async () => {
    // The server holds the write lock in the trigger: seen as a lock held without a break
    // for half a second (a request holds it for milliseconds otherwise).
    const probe = new SqliteDatabase(`${s.store.dataDir}/acacia.db`);
    probe.pragma('busy_timeout = 0');
    let heldSince: number | undefined;
    try {
      await until('the server to be stalled in the trigger', () => {
        try {
          probe.exec('begin immediate');
          probe.exec('rollback');
          heldSince = undefined;
        } catch {
          heldSince ??= Date.now();
        }
        return heldSince !== undefined && Date.now() - heldSince > 500;
      });
    } finally {
      probe.close();
    }
  };
}

/** Kills what the dead server left running in the database and removes the stall. */
async function unstall(s: Setup): Promise<void> {
  if (storeName === 'postgres') {
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`.execute(s.reader.db);
    await sql`drop trigger test_stall on idempotency_keys`.execute(s.reader.db);
    await sql`drop function test_stall()`.execute(s.reader.db);
  } else {
    await sql`drop trigger test_stall`.execute(s.reader.db);
    await sql`drop table test_stall_rows`.execute(s.reader.db);
  }
}

describe(`Idempotency-Key across a crash (${storeName})`, () => {
  it('a write committed but never acknowledged is not run again: the retry replays its answer', async () => {
    let s: Setup | undefined;
    let socket: net.Socket | undefined;
    try {
      s = await setUp();
      const setup = s;
      socket = sendUnread(s.server.url, createConfig(s, 'after-commit', 'crash-after-commit'));
      // The instant the write is visible in the store, the server dies.
      await until('the config to be committed', async () => (await configsNamed(setup, 'after-commit')).length > 0);
      await stopProcess(s.server.child, 'SIGKILL');

      const [config] = await configsNamed(s, 'after-commit');
      const kept = await answerOf(s, 'crash-after-commit');
      assert.equal(kept?.status_code, 200, 'the answer was committed with the write');

      const client = await restart(s);
      const retry = await client.addons.createConfig(s.installed, configBody('after-commit'), {
        idempotencyKey: 'crash-after-commit',
      });
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body.RequestID, 'first-crash-after-commit', 'the first request’s answer');
      assert.equal(assertOk(retry), config!.id);
      assert.deepEqual(await configsNamed(s, 'after-commit'), [config], 'exactly one config');
    } finally {
      socket?.destroy();
      await tearDown(s);
    }
  });

  it('a write cut off before its answer was recorded is not kept: the retry runs it once', async () => {
    let s: Setup | undefined;
    let socket: net.Socket | undefined;
    try {
      s = await setUp();
      const stalled = await stallWhenAnswerIsWritten(s);
      socket = sendUnread(s.server.url, createConfig(s, 'before-commit', 'crash-before-commit'));
      await stalled();
      await stopProcess(s.server.child, 'SIGKILL');
      await unstall(s);
      assert.equal((await answerOf(s, 'crash-before-commit'))?.status_code, null, 'the claim, without an answer');

      const client = await restart(s);
      const retry = await client.addons.createConfig(s.installed, configBody('before-commit'), {
        idempotencyKey: 'crash-before-commit',
      });
      assert.equal(retry.headers['idempotent-replayed'], undefined, 'the retry ran');
      const id = assertOk(retry);
      assert.deepEqual(
        (await configsNamed(s, 'before-commit')).map((c) => c.id),
        [id],
        'exactly one config: the retry’s',
      );
      const again = await client.addons.createConfig(s.installed, configBody('before-commit'), {
        idempotencyKey: 'crash-before-commit',
      });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(assertOk(again), id);
    } finally {
      socket?.destroy();
      await tearDown(s);
    }
  });
});
