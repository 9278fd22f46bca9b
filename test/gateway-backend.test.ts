import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { DATA_PLANE_SECRET_HEADER, startDataPlane, type DataPlaneProcess } from '../src/dataplane/index.js';
import type { BackendRequest, WorkspaceBackend } from '../src/gateway/workspace-backend.js';
import { assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import {
  hostTarget,
  parseCreatedSecret,
  parseShownSecrets,
  parseToken,
  TigerGraphReplay,
} from './helpers/tigergraph-client.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

/**
 * The gateway in front of a real data-plane process, through a WorkspaceBackend that does
 * what a proxying driver does (adds the shared secret, passes the request on): the handshake
 * stays the gateway's, GSQL secret statements are taken out of a request and the rest of it
 * runs on the workspace in order and in the graph scope reached, and everything else is the
 * workspace's, with no credential passed on.
 */

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basic = { auth: alice };

describe(`gateway in front of a data-plane process (${storeName})`, () => {
  let dir: string;
  let dp: DataPlaneProcess;
  let server: TestServer;
  let tg: TigerGraphReplay;
  const seen: BackendRequest[] = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-gateway-backend-'));
    const secret = randomBytes(24).toString('base64url');
    dp = await startDataPlane({ storeFile: path.join(dir, 'graph.db'), secret });
    const backend: WorkspaceBackend = {
      async serve(req) {
        seen.push(req);
        const res = await request(`${dp.url}${req.path}${req.query ? `?${req.query}` : ''}`, {
          method: req.method as 'GET',
          headers: { ...req.headers, [DATA_PLANE_SECRET_HEADER]: secret },
          ...(req.body ? { body: req.body } : {}),
        });
        return {
          status: res.statusCode,
          headers: { 'content-type': String(res.headers['content-type']) },
          body: Buffer.from(await res.body.arrayBuffer()),
        };
      },
    };
    server = await startTestServer({ ACACIA_SIM_SPEED: '0' }, undefined, { gatewayBackend: backend });
    const wg = await newWorkgroup(server.client, 'backed');
    const ws = await activeWorkspace(server.client, wg, { name: 'backed-ws' });
    assertOk(await server.client.dbUsers.create(wg, ws.workspace_id!, alice));
    tg = new TigerGraphReplay(hostTarget(server.running.gatewayUrl, ws.proxy_host!));
  });
  after(async () => {
    await server.close();
    await dp.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs the secret statements of a GSQL request itself, the rest on the workspace in order and scope', async () => {
    const created = await tg.gsql4(
      basic,
      [
        'CREATE VERTEX Person (PRIMARY_ID id STRING, age INT) WITH PRIMARY_ID_AS_ATTRIBUTE="true"',
        'CREATE GRAPH social (Person)',
        'USE GRAPH social',
        'CREATE SECRET mixed  // the gateway keeps this one',
        'LS',
        'SHOW SECRET',
      ].join('\n'),
    );
    assert.equal(created.status, 200, created.text);
    const secret = parseCreatedSecret(created.text);
    const lines = created.text.split('\n');
    assert.deepEqual(lines.slice(0, 3), [
      'Successfully created vertex types: [Person].',
      'The graph social is created.',
      "Using graph 'social'",
    ]);
    assert.equal(lines[3], `The secret: ${secret} has been created for user "alice".`);
    assert.equal(lines[4], '---- Graph social', 'LS ran in the scope the request had reached');
    assert.deepEqual(parseShownSecrets(created.text), { mixed: `${secret.slice(0, 3)}****${secret.slice(-3)}` });
    // The workspace saw two requests, neither with a secret statement; the second in the graph's scope.
    const gsql = seen.filter((r) => r.path === '/gsql/v1/statements');
    assert.equal(gsql.length, 2);
    assert.doesNotMatch(gsql.map((r) => r.body!.toString()).join('\n'), /SECRET/);
    assert.equal(gsql[1]!.query, 'graph=social');

    // The 3.x endpoint, form-encoded: a failure on the workspace stops the request there.
    const failed = await tg.gsql3(
      basic,
      'USE GRAPH social\nDROP SECRET mixed\nCREATE VERTEX Person (PRIMARY_ID id STRING)\nCREATE SECRET never',
    );
    assert.match(
      failed.text,
      /^Using graph 'social'\nSuccessfully dropped secrets: \[mixed\]\.\nSemantic Check Fails: /,
    );
    assert.match(failed.text, /\n__GSQL__RETURN__CODE__,212$/);
    assert.deepEqual(parseShownSecrets((await tg.gsql4(basic, 'SHOW SECRET')).text), {});
  });

  it('prints the whole answer of a request with a secret statement, however many lines the rest prints', async () => {
    // 60 000 LS in the global scope print 300 000 lines.
    const answer = await tg.gsql4(basic, `USE GLOBAL\nSHOW SECRET\n${'LS\n'.repeat(60_000)}`);
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    const lines = answer.text.split('\n');
    assert.equal(lines.filter((l) => l === '---- Global vertices, edges, and all graphs').length, 60_000);
    assert.doesNotMatch(answer.text, /__GSQL__RETURN__CODE__/);
  });

  it('passes everything else on without the credentials, and keeps the handshake to itself', async () => {
    seen.length = 0;
    const token = parseToken(await tg.tokensV4(basic, { lifetime: '600' })).token;
    const bearer = { bearer: token };
    assert.equal((await tg.echo(bearer)).json.message, 'Hello GSQL');
    assert.equal(await tg.getVer(bearer), '4.2.1');
    const upsert = await tg.request(
      'POST',
      '/restpp/graph/social',
      bearer,
      JSON.stringify({ vertices: { Person: { ann: { age: { value: 41 } } } } }),
    );
    assert.equal(upsert.status, 200, upsert.text);
    assert.deepEqual(upsert.json.results, [{ accepted_vertices: 1, accepted_edges: 0 }]);
    const read = await tg.request('GET', '/restpp/graph/social/vertices/Person/ann', bearer);
    assert.deepEqual((read.json.results as { attributes: unknown }[])[0]!.attributes, { id: 'ann', age: 41 });
    const ls = await tg.gsql4(bearer, 'USE GRAPH social\nLS');
    assert.match(ls.text, /^Using graph 'social'\n---- Graph social/);
    const missing = await tg.request('GET', '/restpp/nothing/here', bearer);
    assert.equal(missing.status, 404);
    assert.equal(missing.json.code, 'REST-1000', 'the workspace’s own answer');

    assert.deepEqual(
      seen.map((r) => `${r.method} ${r.path}`),
      [
        'POST /restpp/graph/social',
        'GET /restpp/graph/social/vertices/Person/ann',
        'POST /gsql/v1/statements',
        'GET /restpp/nothing/here',
      ],
    );
    for (const r of seen) {
      assert.equal(r.headers.authorization, undefined, 'credentials stay at the gateway');
      assert.equal(r.identity.username, 'alice');
    }
  });
});
