import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AcaciaClient, WorkspaceRecord } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { openStoreOf, snapshotStore } from './helpers/store-snapshot.js';
import {
  assertRefusal,
  hostTarget,
  parseCreatedSecret,
  parseToken,
  prefixTarget,
  secretAuth,
  TigerGraphReplay,
  type Auth,
} from './helpers/tigergraph-client.js';
import { activeWorkspace, newWorkgroup, waitForDeletion } from './helpers/workspaces.js';

/** The rules around secrets and tokens, and the refusals, in TigerGraph's shape with the right status. */

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const bob = { username: 'bob', password: 'Other-Secret-42' };
const basic = { auth: alice };

describe(`gateway secrets and tokens: rules and refusals (${storeName})`, () => {
  let server: TestServer;
  let n = 0;

  before(async () => {
    // Behind a trusted proxy, X-Forwarded-For names the client, so one test speaks for several.
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_TRUST_PROXY: '127.0.0.1' });
  });
  after(() => server.close());

  async function workspace(): Promise<{ admin: AcaciaClient; wg: string; ws: WorkspaceRecord; tg: TigerGraphReplay }> {
    const admin = await server.orgClient(`credentials-${++n}`);
    const wg = await newWorkgroup(admin, `credentials-${n}`);
    const ws = await activeWorkspace(admin, wg, { name: `credentials-${n}-ws` });
    assertOk(await admin.dbUsers.create(wg, ws.workspace_id!, alice));
    return { admin, wg, ws, tg: new TigerGraphReplay(prefixTarget(server.running.gatewayUrl, ws.workspace_id!)) };
  }
  const newSecret = async (tg: TigerGraphReplay, alias: string) =>
    (assertOk200(await tg.createSecretV4(basic, alias)).json.results as { value: string }).value;
  const assertOk200 = <T extends { status: number; text: string }>(res: T): T => {
    assert.equal(res.status, 200, res.text);
    return res;
  };

  it('refuses missing or wrong credentials with 401 and both challenges', async () => {
    const { tg } = await workspace();
    const anonymous = await tg.echo({});
    assertRefusal(anonymous, 401, 'unauthenticated', /Basic auth with its password or a secret .*Bearer <token>/);
    assert.match(String(anonymous.headers['www-authenticate']), /Basic realm=".*Bearer realm="/);
    assertRefusal(await tg.requestToken({}, {}), 401, 'unauthenticated');
    assertRefusal(await tg.tokensV4({}, { secret: 'x'.repeat(32) }), 401, 'unauthenticated', /not one of this/);
    assertRefusal(await tg.echo({ bearer: 'y'.repeat(32) }), 401, 'unauthenticated', /token is not known/);
    const secret = await newSecret(tg, 'shown');
    const masked = `${secret.slice(0, 3)}****${secret.slice(-3)}`;
    assertRefusal(
      await tg.requestToken({}, { secret: masked }),
      401,
      'unauthenticated',
      /shown only when it is created/,
    );
  });

  it('lets a token or a secret neither make a secret nor a token beget a token', async () => {
    const { tg } = await workspace();
    const secret = await newSecret(tg, 'first');
    const token = parseToken(await tg.requestToken({}, { secret })).token;

    const viaSecret = await tg.createSecretV4(secretAuth(secret), 'second');
    assertRefusal(viaSecret, 403, 'forbidden', /Authorization must carry the password of "alice".*a secret cannot/);
    assertRefusal(await tg.createSecretV4({ bearer: token }, 'third'), 403, 'forbidden', /a token cannot/);
    const gsql = await tg.gsql4({ bearer: token }, 'CREATE SECRET fourth');
    assert.equal(gsql.status, 200, 'GSQL reports failures in its output');
    assert.match(
      gsql.text,
      /^Semantic Check Fails: Authorization must carry the password .*\n__GSQL__RETURN__CODE__,212$/,
    );
    assertRefusal(await tg.requestToken({ bearer: token }, {}), 403, 'forbidden', /a token cannot be used/);
    assertRefusal(await tg.requestToken({ bearer: token }, { token }, 'PUT'), 403, 'forbidden');
    // A token may still be used to delete itself.
    assert.equal((await tg.tokensV4({ bearer: token }, { tokens: token }, 'DELETE')).status, 200);
    assertRefusal(await tg.echo({ bearer: token }), 401, 'unauthenticated');
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const { tg } = await workspace();
    await newSecret(tg, 'taken');
    assertRefusal(
      await tg.createSecretV4(basic, 'taken'),
      409,
      'conflict',
      /^The secret with alias taken already exists\.$/,
    );
    assertRefusal(await tg.createSecretV4(basic, 'no-dashes'), 400, 'invalid', /^alias must be 1-64 characters/);
    assertRefusal(await tg.request('POST', '/gsql/v1/secrets?value=mine', basic), 400, 'invalid', /^value cannot/);
    assertRefusal(
      await tg.request('GET', '/gsql/v1/secrets?userName=bob', basic),
      403,
      'forbidden',
      /^userName must be the database user the request is authenticated as \("alice"\)/,
    );
    for (const lifetime of ['soon', '0', '-5', '1.5', String(10 * 365 * 24 * 3600 + 1)])
      assertRefusal(await tg.requestToken(basic, { lifetime }), 400, 'invalid', /^lifetime must be a whole number/);
    assertRefusal(await tg.requestToken(basic, { graph: 'not a graph' }), 400, 'invalid', /^graph must be/);
    assertRefusal(await tg.request('POST', '/gsql/v1/tokens', basic, '{"lifetime":'), 400, 'invalid', /^body must be/);
    assertRefusal(await tg.requestToken(basic, {}, 'PUT'), 400, 'invalid', /^token is required/);
    assertRefusal(
      await tg.request('GET', '/gsql/v1/secrets/ghost', basic),
      404,
      'not-found',
      /no secret with alias ghost/,
    );
    assertRefusal(await tg.request('DELETE', '/gsql/v1/secrets/ghost', basic), 404, 'not-found', /Failed to drop/);
    const listed = (await tg.request('GET', '/gsql/v1/secrets', basic)).json.results as { alias: string }[];
    assert.deepEqual(
      listed.map((s) => s.alias),
      ['taken'],
    );

    const put = await tg.request('PUT', '/restpp/echo/', basic);
    assertRefusal(put, 405, 'method-not-allowed', /PUT is not served on \/restpp\/echo/);
    assert.equal(put.headers.allow, 'GET, HEAD, POST');
  });

  it('answers past the handshake with the simulated driver’s clear refusal, GSQL secret statements aside', async () => {
    const { tg } = await workspace();
    const token = parseToken(await tg.requestToken(basic, {})).token;
    const read = await tg.request('GET', '/restpp/graph/social/vertices/Person', { bearer: token });
    assertRefusal(
      read,
      501,
      'no-graph-data',
      /GET \/restpp\/graph\/social\/vertices\/Person needs the workspace's graph/,
    );
    assert.match(String(read.json.message), /ACACIA_DRIVER=local/);
    assertRefusal(await tg.gsql4(basic, 'LS'), 501, 'no-graph-data', /POST \/gsql\/v1\/statements/);

    // The secret statement runs; the statement after it goes to the workspace, which refuses it.
    const mixed = await tg.gsql4(basic, 'CREATE SECRET mixed\nCREATE VERTEX Person (PRIMARY_ID id STRING)');
    assert.equal(mixed.status, 200);
    const lines = mixed.text.split('\n');
    assert.equal(lines.length, 3, mixed.text);
    assert.match(parseCreatedSecret(lines[0]!), /^[a-z0-9]{32}$/);
    assert.match(lines[1]!, /^Semantic Check Fails: POST \/gsql\/v1\/statements needs the workspace's graph/);
    assert.equal(lines[2], '__GSQL__RETURN__CODE__,212');
    const bad = await tg.gsql4(basic, 'CREATE SECRET two words');
    assert.equal(
      bad.text,
      'Syntax Error: CREATE SECRET takes one optional alias, not "two words".\n__GSQL__RETURN__CODE__,211',
    );
  });

  it('keeps secrets and tokens to their workspace and user, and removes them with the workspace', async () => {
    const a = await workspace();
    const b = await workspace();
    // b has its own alice, with the same password: another user all the same.
    assertOk(await a.admin.dbUsers.create(a.wg, a.ws.workspace_id!, bob));
    const secret = await newSecret(a.tg, 'mine');
    const token = parseToken(await a.tg.requestToken({}, { secret })).token;
    const viaHost = new TigerGraphReplay(hostTarget(server.running.gatewayUrl, b.ws.proxy_host!));
    for (const other of [b.tg, viaHost]) {
      assertRefusal(await other.echo({ bearer: token }), 401, 'unauthenticated', /not known in this workspace/);
      assertRefusal(await other.requestToken({}, { secret }), 401, 'unauthenticated');
      assertRefusal(await other.echo(secretAuth(secret)), 401, 'unauthenticated');
    }
    // Bob sees none of alice's secrets and cannot drop them.
    const bobs = await a.tg.request('GET', '/gsql/v1/secrets', { auth: bob });
    assert.deepEqual(bobs.json.results, []);
    assertRefusal(await a.tg.request('DELETE', '/gsql/v1/secrets/mine', { auth: bob }), 404, 'not-found');
    assertRefusal(await a.tg.tokensV4({ auth: bob }, { tokens: token }, 'DELETE'), 404, 'REST-3300');
    // A user holds at most 1,000 tokens: a longer list of distinct ones is refused unread.
    const many = Array.from({ length: 1001 }, (_, i) => `${'t'.repeat(28)}${String(i).padStart(4, '0')}`);
    assertRefusal(await a.tg.tokensV4({ auth: bob }, { tokens: many }, 'DELETE'), 400, 'invalid', /^tokens names 1001/);
    const repeated = Array.from({ length: 20_000 }, () => 'x'.repeat(32));
    assertRefusal(await a.tg.tokensV4({ auth: bob }, { tokens: repeated }, 'DELETE'), 404, 'REST-3300');
    assert.equal((await a.tg.echo({ bearer: token })).status, 200);

    // Only digests are stored: neither the secret nor the token is anywhere in the store.
    const store = await openStoreOf(server.store);
    try {
      const text = [...(await snapshotStore(store)).values()].flatMap((t) => t.rows).join('\n');
      assert.equal(text.includes(secret) || text.includes(token), false);
      const count = async (table: 'db_secrets' | 'db_tokens') =>
        (await store.db.selectFrom(table).select('id').where('workspace_id', '=', a.ws.workspace_id!).execute()).length;
      assert.deepEqual([await count('db_secrets'), await count('db_tokens')], [1, 1]);
      assertOk(await a.admin.workspaces.delete(a.wg, a.ws.workspace_id!));
      await waitForDeletion(a.admin, a.wg, a.ws.workspace_id!);
      assert.deepEqual([await count('db_secrets'), await count('db_tokens')], [0, 0]);
    } finally {
      await store.close();
    }
  });

  it('counts failed secret and token attempts in the login throttle, per client', async () => {
    const { tg } = await workspace();
    const guess = (ip: string, auth: Auth) =>
      tg.request('GET', '/restpp/echo', { ...auth, headers: { 'x-forwarded-for': ip } });
    const secret = await newSecret(tg, 'real');
    const token = parseToken(await tg.requestToken({}, { secret })).token;
    for (let i = 0; i < 6; i++)
      assertRefusal(await guess('198.51.100.7', { bearer: `guess${i}` }), 401, 'unauthenticated');
    const held = await guess('198.51.100.7', { bearer: token });
    assertRefusal(held, 429, 'rate-limited', /too many failed attempts with tokens from this address; retry in 1 s/);
    assert.equal(held.headers['retry-after'], '1');
    assert.equal((await guess('198.51.100.8', { bearer: token })).status, 200, 'another client is not held back');
    assert.equal((await guess('198.51.100.7', basic)).status, 200, 'nor the password of a user');

    for (let i = 0; i < 6; i++)
      assertRefusal(await guess('198.51.100.9', secretAuth(`wrong${i}`)), 401, 'unauthenticated');
    assertRefusal(await guess('198.51.100.9', secretAuth(secret)), 429, 'rate-limited', /with secrets/);
    const admin = await server.orgClient('credentials-clock');
    assertOk(await admin.moveClock({ advance_seconds: 1 }));
    assert.equal((await guess('198.51.100.9', secretAuth(secret))).status, 200);
  });

  it('keeps secrets and tokens out of the log, also when sent in the query', async () => {
    const { tg } = await workspace();
    const secret = await newSecret(tg, 'logged');
    const res = await tg.request('GET', `/restpp/requesttoken?secret=${secret}&lifetime=60`, {});
    const { token } = parseToken(res);
    await tg.echo({ bearer: token });
    const text = server.logs.join('\n');
    assert.match(text, /requesttoken\?secret=\[redacted\]&lifetime=60/);
    // Names are read percent-decoded: so is the log's judgement of them.
    const encoded = parseToken(await tg.request('GET', `/restpp/requesttoken?%73ecret=${secret}&lifetime=60`, {}));
    const spelt = parseToken(await tg.request('GET', `/restpp/requesttoken?secre%74=${secret}`, {}));
    await tg.request('DELETE', `/restpp/requesttoken?secret=${secret}&%74oken=${encoded.token}`, {});
    // A request passed on to the workspace is logged by the same rule.
    await tg.request('GET', `/restpp/graph/g/vertices?limit=1&token=${spelt.token}`, { bearer: token });
    const all = server.logs.join('\n');
    assert.match(all, /requesttoken\?%73ecret=\[redacted\]&lifetime=60/);
    assert.match(all, /vertices\?limit=1&token=\[redacted\]/);
    for (const value of [secret, token, encoded.token, spelt.token]) assert.equal(all.includes(value), false);
  });
});
