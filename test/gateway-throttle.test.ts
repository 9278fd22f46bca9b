import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AcaciaClient } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { gatewayGet, type GatewayResponse } from './helpers/gateway.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const bob = { username: 'bob', password: 'Other-Secret-42' };
const wrong = { username: 'alice', password: 'Wrong-Secret-42' };

function assertRefused(res: GatewayResponse, status: number, code: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.error, true);
  assert.equal(res.body.code, code);
  assert.equal(typeof res.body.message, 'string');
  assert.equal(JSON.stringify(res.body).includes('Secret'), false, 'no password is echoed');
}

describe(`gateway: failed logins are throttled per client and database user (${storeName})`, () => {
  let server: TestServer;
  let admin: AcaciaClient;
  let path: string;

  before(async () => {
    // Behind a trusted proxy, X-Forwarded-For names the client, so one test speaks for several.
    server = await startTestServer({ ACACIA_TRUST_PROXY: '127.0.0.1', ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    admin = server.client;
    const wg = await newWorkgroup(admin);
    const ws = (await activeWorkspace(admin, wg, { name: 'guarded' })).workspace_id!;
    assertOk(await admin.dbUsers.create(wg, ws, alice));
    assertOk(await admin.dbUsers.create(wg, ws, bob));
    path = `/w/${ws}/api/ping`;
  });
  after(() => server.close());

  const from = (ip: string, auth: { username: string; password: string }) =>
    gatewayGet(server.running.gatewayUrl, path, { auth, headers: { 'x-forwarded-for': ip } });
  const advance = async (seconds: number) => assertOk(await admin.moveClock({ advance_seconds: seconds }));

  it('delays a client after five wrong passwords, then locks it out, with 429 and Retry-After', async () => {
    const guesser = '198.51.100.1';
    for (let i = 0; i < 6; i++) assertRefused(await from(guesser, wrong), 401, 'unauthenticated');

    // Even the right password waits now: the answer must not tell a guess was right.
    const waiting = await from(guesser, alice);
    assertRefused(waiting, 429, 'rate-limited');
    assert.equal(waiting.headers['retry-after'], '1');
    assert.match(String(waiting.body.message), /too many failed logins as "alice" from this address; retry in 1 s/);

    // Other clients, and other users of this client, are not held back.
    assert.equal((await from('198.51.100.2', alice)).status, 200);
    assert.equal((await from(guesser, bob)).status, 200);

    // Each further failure doubles the wait; the tenth locks the pair out for 15 minutes.
    for (const [wait, next] of [
      [1, '2'],
      [2, '4'],
      [4, '8'],
      [8, '900'],
    ] as const) {
      await advance(wait);
      assertRefused(await from(guesser, wrong), 401, 'unauthenticated');
      const held = await from(guesser, alice);
      assertRefused(held, 429, 'rate-limited');
      assert.equal(held.headers['retry-after'], next);
    }
    await advance(899);
    assert.equal((await from(guesser, alice)).headers['retry-after'], '1');
    await advance(1);
    assert.equal((await from(guesser, alice)).status, 200, 'the lockout ends');
    // The success started the count afresh: a wrong password is a plain 401 again.
    assertRefused(await from(guesser, wrong), 401, 'unauthenticated');
    assert.equal((await from(guesser, alice)).status, 200);
  });

  it('checks wrong passwords sent at once no more than sent in turn: five free, the sixth, then 429', async () => {
    const guesser = '198.51.100.4';
    const answers = await Promise.all(Array.from({ length: 60 }, () => from(guesser, wrong)));
    const refused = answers.filter((res) => res.status === 401);
    const heldBack = answers.filter((res) => res.status === 429);
    assert.equal(refused.length, 6, answers.map((res) => res.status).join(' '));
    assert.equal(heldBack.length, 54);
    for (const res of refused) assertRefused(res, 401, 'unauthenticated');
    for (const res of heldBack) assertRefused(res, 429, 'rate-limited');

    // A client sending its right password many times at once is not held back.
    const rightAtOnce = await Promise.all(Array.from({ length: 20 }, () => from('198.51.100.5', bob)));
    assert.deepEqual(
      rightAtOnce.map((res) => res.status),
      Array.from({ length: 20 }, () => 200),
    );
  });

  it('counts an unknown user like a known one, so the answer does not reveal which names exist', async () => {
    const guesser = '198.51.100.3';
    const ghost = { username: 'ghost', password: 'Wrong-Secret-42' };
    for (let i = 0; i < 6; i++) assertRefused(await from(guesser, ghost), 401, 'unauthenticated');
    assertRefused(await from(guesser, ghost), 429, 'rate-limited');
  });
});
