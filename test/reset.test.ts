import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { runCli } from './helpers/cli.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

/** Everything the bootstrap key sees, by kind: ids of what exists. */
async function inventory(client: AcaciaClient) {
  const workgroups = resultOf(await client.workgroups.list());
  const workspaces = workgroups.flatMap((wg) => wg.workspaces.map((ws) => ws.workspace_id));
  return {
    workgroups: workgroups.map((wg) => wg.workgroup_id),
    workspaces,
    keys: resultOf(await client.apiKeys.list()).map((k) => k.key_name),
    events: resultOf(await client.events.list()).length,
    operations: resultOf(await client.operations.list()).length,
    providers: resultOf(await client.cloudProviders.list())
      .filter((p) => p.type !== 'public')
      .map((p) => p.id),
  };
}

const empty = { workgroups: [], workspaces: [], keys: ['bootstrap'], events: 0, operations: 0, providers: [] };

describe(`reset (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
  });
  after(() => server.close());

  it('leaves only the bootstrap organisation and key, and is idempotent', async () => {
    const client = server.client;
    const wg = await newWorkgroup(client, 'doomed');
    await activeWorkspace(client, wg, { name: 'doomed-ws' });
    assertOk(await client.apiKeys.create({ key_name: 'other', role: 'viewer' }));
    const other = await server.orgClient('another-org');
    await newWorkgroup(other, 'theirs');
    assert.notDeepEqual(await inventory(client), empty);

    const clockBefore = assertOk(await client.moveClock({ advance_seconds: 0 })).now;
    const answer = assertOk(await client.reset());
    // The manual clock keeps its time.
    assert.equal(answer.now, clockBefore);
    assert.deepEqual(await inventory(client), empty);
    // The other organisation's key went with it.
    assertError(await other.workgroups.list(), 401, 'Unauthorized', 'x-api-key');

    // Again: nothing to remove, the same answer.
    assertOk(await client.reset());
    assert.deepEqual(await inventory(client), empty);

    // The instance works as a fresh one.
    const again = await newWorkgroup(client, 'doomed');
    assert.ok(again);
  });

  it('is refused to a key of another organisation, and to a viewer, changing nothing', async () => {
    const client = server.client;
    await newWorkgroup(client, 'kept');
    const before = await inventory(client);
    const outsider = await server.orgClient('outsider');
    assertError(await outsider.reset(), 403, 'Forbidden', 'x-api-key');
    assertOk(await client.apiKeys.create({ key_name: 'looker', role: 'viewer' }));
    const viewer = await server.orgClient('default', { role: 'viewer' });
    assertError(await viewer.reset(), 403, 'Forbidden', 'x-api-key');
    assert.deepEqual((await inventory(client)).workgroups, before.workgroups);
  });

  it('runs from the CLI, printing JSON', async () => {
    const res = await runCli(['reset', '-o', 'json'], { ACACIA_URL: server.url, ACACIA_API_KEY: server.bootstrapKey });
    assert.equal(res.code, 0, res.stderr);
    assert.match(JSON.parse(res.stdout).now, /^\d{4}-/);
    assert.deepEqual(await inventory(server.client), empty);
  });
});

describe(`reset outside test mode (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_FAULT_INJECTION: 'off' });
  });
  after(() => server.close());

  it('is refused, naming the setting, and changes nothing', async () => {
    const client = server.client;
    const wg = await newWorkgroup(client, 'stays');
    const res = await client.reset();
    const detail = assertError(res, 403, 'Forbidden', 'ACACIA_CLOCK');
    assert.match(detail.Reason, /ACACIA_FAULT_INJECTION=on/);
    assert.deepEqual(
      resultOf(await client.workgroups.list()).map((w) => w.workgroup_id),
      [wg],
    );
    const cli = await runCli(['reset', '-o', 'json'], { ACACIA_URL: server.url, ACACIA_API_KEY: server.bootstrapKey });
    assert.notEqual(cli.code, 0);
  });
});

/** The same requests, on a server started afresh: the ids of what they made. */
async function idsOfSequence(env: Record<string, string>): Promise<string[]> {
  const server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ...env });
  try {
    const client = server.client;
    // A fixed time, so the ids' time bits agree too.
    assertOk(await client.moveClock({ now: '2059-01-01T00:00:00Z', skip_due: true }));
    const ids: string[] = [];
    const wg = await newWorkgroup(client, 'seq');
    ids.push(wg);
    const ws = await activeWorkspace(client, wg, { name: 'seq-ws' });
    ids.push(ws.workspace_id!, ws.database_id!);
    ids.push(assertOk(await client.apiKeys.create({ key_name: 'seq', role: 'viewer' })).key_name);
    ids.push(...resultOf(await client.operations.list()).map((o) => o.id));
    // After a reset the sequence starts again: the same requests make the same ids.
    assertOk(await client.reset());
    ids.push(await newWorkgroup(client, 'seq'));
    return ids;
  } finally {
    await server.close();
  }
}

describe(`deterministic ids (${storeName})`, () => {
  it('are equal across two fresh servers with the same seed, and differ without one', async () => {
    const first = await idsOfSequence({ ACACIA_ID_SEED: 'acacia-ci' });
    const second = await idsOfSequence({ ACACIA_ID_SEED: 'acacia-ci' });
    assert.deepEqual(second, first);

    const otherSeed = await idsOfSequence({ ACACIA_ID_SEED: 'another' });
    assert.notEqual(otherSeed[0], first[0]);
    const unseeded = await idsOfSequence({});
    const unseededAgain = await idsOfSequence({});
    assert.notEqual(unseeded[0], unseededAgain[0]);
  });
});
