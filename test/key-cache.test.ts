import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { AcaciaClient, type ApiResponse } from '../src/client/index.js';
import { HEARD_CHANNEL, KEYS_CHANNEL, LISTENER_NAME } from '../src/store/key-cache.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { statementsOf } from './helpers/statements.js';

const skip = storeName === 'sqlite' ? 'SQLite reads the key in process, on every request: nothing is kept' : false;

function assertRefused(res: ApiResponse<unknown>, reason: RegExp): void {
  assert.match(assertError(res, 401, 'Unauthorized', 'x-api-key').Reason, reason);
}

/** Resolves when the server has said it heard the change to row `id` (and emptied what it kept). */
async function heardByServer(listener: pg.Client, id: string, change: () => Promise<unknown>): Promise<void> {
  const heard = new Promise<void>((resolve) =>
    listener.on('notification', (m) => {
      if (m.payload?.startsWith(`${id} `)) resolve();
    }),
  );
  await change();
  await heard;
}

// PostgreSQL: a key seen once is kept by the process (no statement for it on later
// requests), and every change to keys or organisations, by any path, takes effect at once.
describe(`API keys kept in process (${storeName})`, { skip }, () => {
  let server: TestServer;
  let sqlClient: pg.Client;
  let listener: pg.Client;

  before(async () => {
    server = await startTestServer({ ACACIA_SERVER_TIMING: 'on', ACACIA_SIM_SPEED: '0' });
    sqlClient = new pg.Client({ connectionString: server.store.databaseUrl });
    await sqlClient.connect();
    listener = new pg.Client({ connectionString: server.store.databaseUrl });
    await listener.connect();
    await listener.query(`listen ${HEARD_CHANNEL}`);
  });
  after(async () => {
    await sqlClient?.end();
    await listener?.end();
    await server?.close();
  });

  /** A new viewer key and its id, used until the process keeps it (listening has started). */
  async function keptKey(name: string): Promise<{ client: AcaciaClient; id: string }> {
    const created = assertOk(await server.client.apiKeys.create({ key_name: name, role: 'viewer' }));
    const client = new AcaciaClient({ baseUrl: server.url, apiKey: created.plaintext_key! });
    const deadline = Date.now() + 5000;
    while (statementsOf(await client.workgroups.list()) !== 1) {
      assert.ok(Date.now() < deadline, 'the key is kept once the process listens for changes');
    }
    const { rows } = await sqlClient.query<{ id: string }>('select id from api_keys where key_name = $1', [name]);
    return { client, id: rows[0]!.id };
  }

  it('answers a kept key without a statement for it', async () => {
    const { client } = await keptKey('kept');
    // The page of workgroups is the one statement; the key cost none.
    assert.equal(statementsOf(await client.workgroups.list()), 1);
  });

  it('refuses a key revoked by SQL outside Acacia as soon as the change is heard', async () => {
    const { client, id } = await keptKey('revoked-by-sql');
    await heardByServer(listener, id, () =>
      sqlClient.query('update api_keys set revoked_at = $1 where id = $2', [Date.now(), id]),
    );
    assertRefused(await client.workgroups.list(), /revoked/);
  });

  it("applies a change to the key's organisation (its tier) on the next request", async () => {
    const { client, id } = await keptKey('tier-change');
    const { rows } = await sqlClient.query<{ org_id: string }>('select org_id from api_keys where id = $1', [id]);
    const orgId = rows[0]!.org_id;
    // The key's own organisation goes: a kept key must not outlive it.
    await heardByServer(listener, orgId, () =>
      sqlClient.query("update organisations set name = name || '-renamed' where id = $1", [orgId]),
    );
    const res = await client.workgroups.list();
    assert.equal(res.status, 200);
    assert.equal(statementsOf(res), 2, 'the key was looked up again after its organisation changed');
  });

  it('answers a revocation only once every listening process has dropped the key', async () => {
    const { client } = await keptKey('revoked-slowly-heard');
    // Another process, slow to act on what it hears: it says so 300 ms after the announcement.
    const slow = new pg.Client({ connectionString: server.store.databaseUrl, application_name: LISTENER_NAME });
    await slow.connect();
    try {
      let said = false;
      slow.on('notification', ({ payload }) => {
        setTimeout(() => {
          said = true;
          slow.query("select pg_notify($1, $2 || ' ' || pg_backend_pid())", [HEARD_CHANNEL, payload]).catch(() => {});
        }, 300);
      });
      await slow.query(`listen ${KEYS_CHANNEL}`);
      assertOk(await server.client.apiKeys.revoke('revoked-slowly-heard'));
      assert.ok(said, 'the revocation waited for the slow process');
      assertRefused(await client.workgroups.list(), /revoked/);

      // A process that never says it heard holds a revocation up for a second at most.
      slow.removeAllListeners('notification');
      await keptKey('revoked-never-heard');
      const started = Date.now();
      assertOk(await server.client.apiKeys.revoke('revoked-never-heard'));
      assert.ok(Date.now() - started < 5000);
    } finally {
      await slow.end();
    }
  });

  it('keeps nothing while the listening connection is gone, so a revocation meanwhile still applies', async () => {
    const { client, id } = await keptKey('revoked-while-deaf');
    const terminated = await sqlClient.query<{ pid: number }>(
      `select pg_terminate_backend(pid) as pid from pg_stat_activity
        where datname = current_database() and application_name = $1`,
      [LISTENER_NAME],
    );
    assert.equal(terminated.rowCount, 1, "the server's listening connection was found and terminated");
    // Its notification goes nowhere: the server must not answer from what it kept.
    await sqlClient.query('update api_keys set revoked_at = $1 where id = $2', [Date.now(), id]);
    assertRefused(await client.workgroups.list(), /revoked/);
  });

  it('looks every key up with ACACIA_KEY_CACHE=off (a pooler that does not carry LISTEN)', async () => {
    const plain = await startTestServer({ ACACIA_SERVER_TIMING: 'on', ACACIA_SIM_SPEED: '0', ACACIA_KEY_CACHE: 'off' });
    try {
      for (let i = 0; i < 20; i++) assert.equal(statementsOf(await plain.client.workgroups.list()), 2);
    } finally {
      await plain.close();
    }
  });
});
