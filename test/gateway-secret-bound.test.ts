import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { digest, GENERATED_ALIAS_PREFIX } from '../src/domain/db-credentials.js';
import { SECRETS_PER_USER } from '../src/domain/db-secrets.js';
import { newId } from '../src/domain/ids.js';
import type { DbSecret } from '../src/store/repositories/db-secrets.js';
import type { Store } from '../src/store/store.js';
import { assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { openStoreOf } from './helpers/store-snapshot.js';
import { assertRefusal, prefixTarget, secretAuth, TigerGraphReplay } from './helpers/tigergraph-client.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

/** How many secrets a database user may hold, and what happens at the bound. */

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basic = { auth: alice };

describe(`gateway secrets per user (${storeName})`, () => {
  let server: TestServer;
  let store: Store;
  let n = 0;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    store = await openStoreOf(server.store);
  });
  after(async () => {
    await store.close();
    await server.close();
  });

  async function workspace() {
    const admin = await server.orgClient(`secret-bound-${++n}`);
    const wg = await newWorkgroup(admin, `secret-bound-${n}`);
    const ws = await activeWorkspace(admin, wg, { name: `secret-bound-${n}-ws` });
    const workspaceId = ws.workspace_id!;
    assertOk(await admin.dbUsers.create(wg, workspaceId, alice));
    const user = await store.db
      .selectFrom('db_users')
      .select(['id', 'org_id'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return { workspaceId, user, tg: new TigerGraphReplay(prefixTarget(server.running.gatewayUrl, workspaceId)) };
  }

  const aliases = async (userId: string) =>
    (await store.db.selectFrom('db_secrets').select('alias').where('db_user_id', '=', userId).execute()).map(
      (r) => r.alias,
    );

  /** Stored behind the API's back, oldest first: filling a user up to the bound through HTTP would take minutes. */
  async function seed(ws: Awaited<ReturnType<typeof workspace>>, names: string[]): Promise<void> {
    const rows: DbSecret[] = names.map((alias, i) => ({
      id: newId(),
      org_id: ws.user.org_id,
      workspace_id: ws.workspaceId,
      db_user_id: ws.user.id,
      alias,
      secret_hash: digest(`${ws.workspaceId} seeded ${i}`),
      masked: 'see****ded',
      created_at: i,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await store.db
        .insertInto('db_secrets')
        .values(rows.slice(i, i + 500))
        .execute();
  }

  it('lets a client make a secret per connection far past 50, each one usable', async () => {
    const ws = await workspace();
    const made: string[] = [];
    // As pyTigerGraph's tests do (createSecret() without an alias), ten connections at a time.
    for (let round = 0; round < 7; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => ws.tg.createSecretV4(basic)));
      for (const res of answers) {
        assert.equal(res.status, 200, res.text);
        const { alias, value } = res.json.results as { alias: string; value: string };
        assert.ok(alias.startsWith(GENERATED_ALIAS_PREFIX), alias);
        made.push(value);
      }
    }
    assert.equal((await aliases(ws.user.id)).length, 70);
    for (const secret of [made[0]!, made[49]!, made[69]!])
      assert.equal((await ws.tg.echo(secretAuth(secret))).status, 200);
  });

  it('at the bound replaces the oldest auto-generated secrets, never more than the bound, also at once', async () => {
    const ws = await workspace();
    // Three places left; the five oldest secrets are auto-generated, the rest named by the user.
    const generated = Array.from({ length: 5 }, (_, i) => `${GENERATED_ALIAS_PREFIX}seed${i}`);
    const named = Array.from({ length: SECRETS_PER_USER - 3 - generated.length }, (_, i) => `named_${i}`);
    await seed(ws, [...generated, ...named]);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => ws.tg.createSecretV4(basic, `new_${i}`)));
    for (const res of answers) assert.equal(res.status, 200, res.text);
    const now = new Set(await aliases(ws.user.id));
    assert.equal(now.size, SECRETS_PER_USER);
    assert.deepEqual(
      generated.filter((a) => now.has(a)),
      [],
    );
    assert.equal(
      named.every((a) => now.has(a)),
      true,
    );
    for (let i = 0; i < 8; i++) assert.equal(now.has(`new_${i}`), true);
  });

  it('refuses a secret past the bound when every secret is named, changing nothing', async () => {
    const ws = await workspace();
    await seed(
      ws,
      Array.from({ length: SECRETS_PER_USER }, (_, i) => `named_${i}`),
    );
    const answers = await Promise.all([ws.tg.createSecretV4(basic, 'one_more'), ws.tg.createSecretV4(basic)]);
    for (const res of answers)
      assertRefusal(
        res,
        403,
        'quota',
        /^alias the limit of 10000 secrets per database user is reached and all are named/,
      );
    const now = await aliases(ws.user.id);
    assert.equal(now.length, SECRETS_PER_USER);
    assert.equal(now.includes('one_more'), false);
  });
});
