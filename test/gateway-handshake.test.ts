import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AcaciaClient, WorkspaceRecord } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import {
  assertRefusal,
  hostTarget,
  parseCreatedSecret,
  parseShownSecrets,
  parseToken,
  prefixTarget,
  secretAuth,
  TigerGraphReplay,
  type Target,
} from './helpers/tigergraph-client.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

/**
 * pyTigerGraph's connect sequence through the gateway: a database user made through the API,
 * a secret, a token from it (and from the password), the token as `Authorization: Bearer`
 * for echo and version, its expiry on the manual clock, and its revocation. Once per routing
 * form (Host as the Savanna layout, `/w/<id>/`) and per version layout (TigerGraph 4:
 * /gsql/v1/secrets and /gsql/v1/tokens; 3.x: GSQL secret statements and /restpp/requesttoken).
 */

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basic = { auth: alice };
const HOUR = 3600;

const routings = ['Host', '/w/<id>/'] as const;
const layouts = [
  { name: 'TigerGraph 4', version: '4.2.1' },
  { name: 'TigerGraph 3.x', version: '3.10.1' },
] as const;

describe(`gateway handshake, as pyTigerGraph performs it (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'acacia-handshake-'));
    const config = path.join(dir, 'versions.json');
    writeFileSync(config, JSON.stringify({ tg_versions: ['3.10.1', '4.2.1'] }));
    server = await startTestServer({ ACACIA_CONFIG: config, ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  /** A workspace with the database user alice, in an organisation of its own (tier quotas never couple tests). */
  async function workspace(version: string): Promise<{ wg: string; ws: WorkspaceRecord }> {
    admin = await server.orgClient(`handshake-${++n}`);
    const wg = await newWorkgroup(admin, `handshake-${n}`);
    const ws = await activeWorkspace(admin, wg, { name: `handshake-${n}-ws`, tg_version: version });
    assertOk(await admin.dbUsers.create(wg, ws.workspace_id!, alice));
    return { wg, ws };
  }
  const targetFor = (routing: (typeof routings)[number], ws: WorkspaceRecord): Target =>
    routing === 'Host'
      ? hostTarget(server.running.gatewayUrl, ws.proxy_host!)
      : prefixTarget(server.running.gatewayUrl, ws.workspace_id!);

  /** A secret by the layout's own route: /gsql/v1/secrets on 4, `CREATE SECRET` through GSQL on 3.x. */
  async function createSecret(tg: TigerGraphReplay, v4: boolean, alias: string): Promise<string> {
    if (v4) {
      const res = await tg.createSecretV4(basic, alias);
      assert.equal(res.status, 200, res.text);
      assert.equal((res.json.results as { alias: string }).alias, alias);
      return (res.json.results as { value: string }).value;
    }
    const res = await tg.gsql3(basic, `\n                USE GRAPH social\n                CREATE SECRET ${alias} `);
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.doesNotMatch(res.text, /__GSQL__RETURN__CODE__/);
    return parseCreatedSecret(res.text);
  }

  /** A token by the layout's own route: POST /gsql/v1/tokens on 4, POST /restpp/requesttoken on 3.x. */
  const getToken = (tg: TigerGraphReplay, v4: boolean, auth: typeof basic | object, data: Record<string, string>) =>
    v4 ? tg.tokensV4(auth, data) : tg.requestToken(auth, data);

  for (const routing of routings) {
    for (const layout of layouts) {
      const v4 = layout.version.startsWith('4');
      it(`${layout.name} through ${routing}: secret → token → Bearer echo and version → expiry`, async () => {
        const { ws } = await workspace(layout.version);
        const tg = new TigerGraphReplay(targetFor(routing, ws));

        assert.equal(await tg.getVer(basic), layout.version, 'getVer() with the password');
        const secret = await createSecret(tg, v4, 'ci');
        assert.match(secret, /^[a-z0-9]{32}$/);

        // With the secret in the body (pyTigerGraph keeps sending its Basic header beside it).
        const fromSecret = parseToken(
          await getToken(
            tg,
            v4,
            { auth: { username: 'tigergraph', password: 'tigergraph' } },
            { secret, lifetime: '3600' },
          ),
        );
        // With the secret as the password of __GSQL__secret (TigerGraphConnection(gsqlSecret=…)).
        const fromGsqlSecret = parseToken(await getToken(tg, v4, secretAuth(secret), {}));
        // With the password only.
        const fromPassword = parseToken(await getToken(tg, v4, basic, { lifetime: String(2 * HOUR) }));
        const now = Math.floor(Date.parse(assertOk(await admin.moveClock({ advance_seconds: 0 })).now) / 1000);
        assert.equal(fromSecret.expiration, now + HOUR, 'expiration is epoch seconds, lifetime from now');
        assert.equal(fromGsqlSecret.expiration, now + 30 * 24 * HOUR, 'the default lifetime is 30 days');
        assert.equal(fromPassword.expiration, now + 2 * HOUR);
        assert.equal(new Set([fromSecret.token, fromGsqlSecret.token, fromPassword.token]).size, 3);

        const bearer = { bearer: fromSecret.token };
        for (const usePost of [false, true]) {
          const echoed = await tg.echo(bearer, usePost);
          assert.equal(echoed.status, 200, echoed.text);
          assert.equal(echoed.json.message, 'Hello GSQL');
        }
        const noSlash = await tg.request('GET', '/restpp/echo', bearer);
        assert.equal(noSlash.json.message, 'Hello GSQL');
        assert.equal(await tg.getVer(bearer), layout.version, 'getVer() with the token');
        assert.deepEqual((await tg.request('GET', '/api/ping', bearer)).json, {
          error: false,
          message: 'pong',
          results: {},
        });

        // A later listing never shows the secret again, in either layout.
        const listed = v4
          ? Object.fromEntries(
              (
                (await tg.request('GET', '/gsql/v1/secrets', bearer)).json.results as { alias: string; value: string }[]
              ).map((s) => [s.alias, s.value]),
            )
          : parseShownSecrets((await tg.gsql3(bearer, 'SHOW SECRET')).text);
        assert.deepEqual(listed, { ci: `${secret.slice(0, 3)}****${secret.slice(-3)}` });

        await admin.moveClock({ advance_seconds: HOUR - 1 });
        assert.equal((await tg.echo(bearer)).status, 200, 'valid until the last second');
        await admin.moveClock({ advance_seconds: 1 });
        assertRefusal(await tg.echo(bearer), 401, 'unauthenticated', /the token has expired/);
        assert.equal((await tg.echo({ bearer: fromPassword.token })).status, 200, 'the two-hour token lives on');
        await admin.moveClock({ advance_seconds: HOUR });
        assertRefusal(
          await tg.request('GET', '/restpp/version', { bearer: fromPassword.token }),
          401,
          'unauthenticated',
        );
      });
    }
  }

  for (const [i, layout] of layouts.entries()) {
    const v4 = layout.version.startsWith('4');
    const routing = routings[i % 2]!;
    it(`${layout.name} through ${routing}: dropped secret, new password or deleted user revoke tokens`, async () => {
      const { wg, ws } = await workspace(layout.version);
      const tg = new TigerGraphReplay(targetFor(routing, ws));
      const dropped = await createSecret(tg, v4, 'dropme');
      const kept = await createSecret(tg, v4, 'keep');
      const fromDropped = parseToken(await getToken(tg, v4, {}, { secret: dropped })).token;
      const fromKept = parseToken(await getToken(tg, v4, {}, { secret: kept })).token;
      const fromPassword = parseToken(await getToken(tg, v4, basic, {})).token;
      const works = async (token: string) => (await tg.echo({ bearer: token })).status === 200;

      const drop = v4
        ? await tg.request('DELETE', '/gsql/v1/secrets/dropme', basic)
        : await tg.gsql3(basic, 'USE GRAPH social\n  DROP SECRET dropme');
      assert.equal(drop.status, 200, drop.text);
      assert.match(v4 ? String(drop.json.message) : drop.text, /Successfully dropped secrets: \[dropme\]/);
      assertRefusal(await tg.echo({ bearer: fromDropped }), 401, 'unauthenticated', /revoked with its secret/);
      assertRefusal(
        await getToken(tg, v4, {}, { secret: dropped }),
        401,
        'unauthenticated',
        /not one of this workspace's secrets/,
      );
      assert.deepEqual([await works(fromKept), await works(fromPassword)], [true, true]);

      assertOk(await admin.dbUsers.update(wg, ws.workspace_id!, { username: 'alice', password: 'Rotated-Secret-7' }));
      assertRefusal(await tg.echo({ bearer: fromPassword }), 401, 'unauthenticated', /password changed/);
      assertRefusal(await tg.echo({ bearer: fromKept }), 401, 'unauthenticated', /password changed/);
      // A secret is a credential of its own: it outlives the password, and gives new tokens.
      const afterRotation = parseToken(await getToken(tg, v4, {}, { secret: kept })).token;
      assert.equal(await works(afterRotation), true);

      assertOk(await admin.dbUsers.delete(wg, ws.workspace_id!, { username: 'alice' }));
      assertRefusal(await tg.echo({ bearer: afterRotation }), 401, 'unauthenticated', /not known in this workspace/);
      assertRefusal(await getToken(tg, v4, {}, { secret: kept }), 401, 'unauthenticated');
    });
  }

  it('TigerGraph 3.x: a token is refreshed (PUT) and deleted (DELETE) through /restpp/requesttoken', async () => {
    const { ws } = await workspace('3.10.1');
    const tg = new TigerGraphReplay(prefixTarget(server.running.gatewayUrl, ws.workspace_id!));
    const secret = await createSecret(tg, false, 'refresher');
    const { token } = parseToken(await tg.requestToken({}, { secret, lifetime: '60' }));
    await admin.moveClock({ advance_seconds: 50 });
    const refreshed = parseToken(await tg.requestToken({}, { secret, token, lifetime: '600' }, 'PUT'));
    const now = Math.floor(Date.parse(assertOk(await admin.moveClock({ advance_seconds: 0 })).now) / 1000);
    assert.deepEqual(refreshed, { token, expiration: now + 600 }, 'a refresh counts the lifetime from now');
    await admin.moveClock({ advance_seconds: 300 });
    assert.equal((await tg.echo({ bearer: token })).status, 200, 'alive past its first expiry');

    // The 4.x form of deletion, then the 3.x one for a second token.
    const second = parseToken(await tg.requestToken({}, { secret })).token;
    const deleted = await tg.tokensV4({}, { secret, tokens: token }, 'DELETE');
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.json.error, false);
    assertRefusal(await tg.echo({ bearer: token }), 401, 'unauthenticated');
    assert.equal((await tg.requestToken({}, { secret, token: second }, 'DELETE')).status, 200);
    assertRefusal(await tg.echo({ bearer: second }), 401, 'unauthenticated');
    // What pyTigerGraph's deleteToken(skipNA=True) looks for.
    assertRefusal(await tg.requestToken({}, { secret, token: second }, 'DELETE'), 404, 'REST-3300');
  });
});
