import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { API_PREFIX, resultOf, type AcaciaClient, type ApiResponse } from '../src/client/index.js';
import type { Store } from '../src/store/store.js';
import { casesFor, judge, operationsOf, type FuzzCase, type Operation } from './helpers/fuzz-cases.js';
import { assertError, assertOk } from './helpers/assert.js';
import { rawExchange, requestBytes, type RawOutcome } from './helpers/raw-http.js';
import { unboundedParts, type Hints, type JsonSchema } from './helpers/schema-violations.js';
import { SeededRandom } from './helpers/seeded-random.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { diffSnapshots, openStoreOf, snapshotStore, type StoreSnapshot } from './helpers/store-snapshot.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const API = API_PREFIX;
// Fixed so a failure reproduces; ACACIA_FUZZ_SEED explores other cases.
const SEED = Number(process.env.ACACIA_FUZZ_SEED ?? 74242);
const ARN = 'arn:aws:iam::123456789012:role/acacia/fuzz';
const PARALLEL = 4;

interface Fixture {
  workgroup: string;
  workspace: string;
  database: string;
  user: string;
  schedule: string;
  allowListEntry: string;
  backup: string;
  operation: string;
  cloudProvider: string;
  publicProvider: string;
  addon: string;
  installedAddon: string;
  addonConfig: string;
  keyName: string;
  webhook: string;
}

/** One resource of every kind, so requests with real ids reach validation past the not-found checks. */
async function buildFixture(client: AcaciaClient): Promise<Fixture> {
  const publicId = await publicProvider(client);
  const workgroup = await newWorkgroup(client, 'fuzz');
  const ws = await activeWorkspace(client, workgroup, { name: 'fuzz-ws' });
  const workspace = ws.workspace_id!;
  const schedule = resultOf(
    await client.schedules.create(workgroup, workspace, {
      workspace_id: workspace,
      repeat: 'daily',
      time: '03:00',
      timezone: 'UTC',
      action: 'pause',
    }),
  );
  const entry = resultOf(await client.allowList.create(workgroup, { cidr: '10.9.0.0/16', note: 'fuzz' }));
  resultOf(await client.dbUsers.create(workgroup, workspace, { username: 'fuzzer', password: 'Fuzz-Passw0rd!' }));
  const backup = resultOf(await client.backups.create(workgroup, workspace, { tag: 'fuzz' }));
  const addon = resultOf(await client.addons.catalog())[0]!.addons_id;
  const installed = resultOf(await client.addons.install(addon, { enable: 'true' }));
  const config = resultOf(
    await client.addons.createConfig(installed.id, { config_name: 'fuzzcfg', config_value: 'v' }),
  );
  const provider = resultOf(
    await client.cloudProviders.create({ name: 'fuzz-byoc', platform: 'aws', region: 'us-east-1', role_arn: ARN }),
  );
  await client.waitForCloudProvider(provider.id, (p) => p.status === 'Active');
  resultOf(await client.apiKeys.create({ key_name: 'fuzz-viewer', role: 'viewer' }));
  // A type the fuzzing never causes, to this host's discard port (the servers allow private targets).
  const webhook = resultOf(
    await client.webhooks.create({ url: 'http://127.0.0.1:9/fuzz', event_types: ['schedule.run_skipped'] }),
  ).webhook_id;
  const operation = resultOf(await client.operations.list({ resource_id: workspace }))[0]!.id;
  const user = resultOf(await client.users.list())[0]!.id;
  return {
    workgroup,
    workspace,
    database: ws.database_id!,
    schedule: schedule.id,
    allowListEntry: entry.id,
    backup: backup.id,
    operation,
    cloudProvider: provider.id,
    publicProvider: publicId,
    addon,
    installedAddon: installed.id,
    addonConfig: config,
    keyName: 'fuzz-viewer',
    webhook,
    user,
  };
}

/** Known-good body values by property name: with them a generated body is valid but for its one violation. */
function hintsOf(f: Fixture): Hints {
  return {
    cloud_provider_id: f.publicProvider,
    workspace_id: f.workspace,
    tg_database_id: f.database,
    backup_id: f.backup,
    addons_id: f.addon,
    platform: 'aws',
    region: 'us-east-1',
    role_arn: ARN,
    cidr: '10.8.0.0/16',
    repeat: 'daily',
    time: '04:00',
    timezone: 'UTC',
    key_name: 'fuzz-key',
    role: 'viewer',
    username: 'fuzzer',
    password: 'Fuzz-Passw0rd!2',
    config_name: 'fuzzcfg',
    config_value: 'w',
    tg_database_name: 'fuzz-db-renamed',
    name: 'fuzz-name',
    workgroup_name: 'fuzz-wg-renamed',
    enable: 'true',
    url: 'http://127.0.0.1:9/fuzz',
  };
}

function paramValueOf(f: Fixture) {
  return (op: Operation, name: string): string => {
    switch (name) {
      case 'workgroupID':
        return f.workgroup;
      case 'workspaceID':
        return f.workspace;
      case 'databaseID':
        return f.database;
      case 'scheduleID':
        return f.schedule;
      case 'id':
        return op.path.includes('/operations/') ? f.operation : f.allowListEntry;
      case 'jobID':
      case 'job':
        return f.operation;
      case 'userId':
        return f.user;
      case 'cardID':
        return 'card_1';
      case 'cloudProviderID':
        return f.cloudProvider;
      case 'addonsID':
        return f.addon;
      case 'installedAddonsID':
        return f.installedAddon;
      case 'configName':
        return 'fuzzcfg';
      case 'configID':
        return f.addonConfig;
      case 'key_name':
        return f.keyName;
      case 'webhook_id':
        return f.webhook;
      default:
        throw new Error(`no fixture value for path parameter ${name} of ${op.method} ${op.path}`);
    }
  };
}

/** Waits until the engine has nothing left to do, so the store only changes if a request changes it. */
async function quiescent(store: Store): Promise<StoreSnapshot> {
  let last = await snapshotStore(store);
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const next = await snapshotStore(store);
    const busy = await store.db
      .selectFrom('operations')
      .select('id')
      .where('state', 'in', ['pending', 'running'])
      .execute();
    if (busy.length === 0 && diffSnapshots(last, next).length === 0) return next;
    last = next;
  }
  throw new Error('the store never settled');
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await request(`${url}/healthz`);
    await res.body.text();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

describe(`fuzzing every operation with invalid requests (${storeName}, seed ${SEED})`, () => {
  let server: TestServer;
  let store: Store;
  let fixture: Fixture;
  let operations: Operation[];

  before(async () => {
    server = await startTestServer({
      ACACIA_CLOCK: 'manual',
      ACACIA_SIM_SPEED: '0',
      ACACIA_RATE_LIMIT: '0',
      ACACIA_WEBHOOK_ALLOW_PRIVATE: 'on',
    });
    fixture = await buildFixture(server.client);
    const doc = (await (await request(`${server.url}/openapi.json`)).body.json()) as Parameters<typeof operationsOf>[0];
    operations = operationsOf(doc, (p) => p.startsWith(`${API}/`) || p === '/_test/clock');
    store = await openStoreOf(server.store);
  });
  after(async () => {
    await store?.close();
    await server?.close();
  });

  it('covers every API operation and the manual clock', () => {
    assert.ok(operations.length >= 60, `only ${operations.length} operations found`);
    assert.ok(operations.some((o) => o.path === '/_test/clock'));
  });

  it('bounds every string, number and list a request may carry', () => {
    const unbounded = operations.flatMap((op) => [
      ...(op.body ? unboundedParts(op.body).map((p) => `${op.method} ${op.path} body ${p}`) : []),
      ...op.params.flatMap((p) =>
        unboundedParts(p.schema as JsonSchema).map((u) => `${op.method} ${op.path} ${p.in} ${p.name}: ${u}`),
      ),
    ]);
    assert.deepEqual(unbounded, []);
  });

  it('refuses every generated invalid request at once in a small 4xx envelope; stays up; changes nothing', async () => {
    const rng = new SeededRandom(SEED);
    const ctx = {
      host: new URL(server.url).host,
      apiKey: server.bootstrapKey,
      rng,
      hints: hintsOf(fixture),
      paramValue: paramValueOf(fixture),
      filterParams: new Set(['configName']),
    };
    const cases: FuzzCase[] = operations.flatMap((op) => casesFor(op, ctx));
    const before = await quiescent(store);
    const failures: string[] = [];
    const started = Date.now();
    // A few at a time: the server and this client share one process, and store round trips overlap.
    for (let at = 0; at < cases.length; at += PARALLEL) {
      const batch = cases.slice(at, at + PARALLEL);
      const outcomes = await Promise.all(batch.map((c) => rawExchange(server.url, c.request)));
      batch.forEach((c, j) => {
        const problem = judge(c, outcomes[j]!);
        if (problem) failures.push(`#${at + j} ${c.op} — ${c.label}: ${problem}`);
      });
      if (at % 500 < PARALLEL) assert.ok(await healthy(server.url), `the server stopped answering after case #${at}`);
    }
    const elapsed = Date.now() - started;
    // The whole list, when the first 60 in the assertion are not enough to see a pattern.
    if (process.env.ACACIA_FUZZ_REPORT) writeFileSync(process.env.ACACIA_FUZZ_REPORT, failures.join('\n'));
    assert.ok(await healthy(server.url), 'the server stopped answering');
    const changed = diffSnapshots(before, await quiescent(store));
    const internal = server.logs.filter((l) => /"level":(50|60)/.test(l));
    console.error(
      `fuzz: ${cases.length} requests over ${operations.length} ` +
        `operations in ${elapsed} ms (seed ${SEED}, ${storeName})`,
    );
    assert.deepEqual(
      { failures: failures.slice(0, 60), failureCount: failures.length, changed, internal: internal.slice(0, 5) },
      { failures: [], failureCount: 0, changed: [], internal: [] },
    );
  });
});

/** A raw exchange's response as the typed client would have returned it. */
function asApiResponse(outcome: RawOutcome): ApiResponse<unknown> {
  assert.ok(outcome.response, 'no response');
  return {
    status: outcome.response.status,
    headers: outcome.response.headers,
    body: JSON.parse(outcome.response.body.toString('utf8')),
  };
}

describe(`what the fuzzer found, case by case (${storeName})`, () => {
  let server: TestServer;
  let client: AcaciaClient;
  let f: Fixture;
  /** Sends the body bytes exactly as given (the typed client would re-encode them). */
  const json = (method: string, path: string, body: Buffer | string) =>
    rawExchange(
      server.url,
      requestBytes(
        method,
        `${API}${path}`,
        [
          ['host', new URL(server.url).host],
          ['x-api-key', server.bootstrapKey],
          ['content-type', 'application/json'],
          ['connection', 'close'],
        ],
        Buffer.from(body),
      ),
    ).then(asApiResponse);

  before(async () => {
    server = await startTestServer({
      ACACIA_CLOCK: 'manual',
      ACACIA_SIM_SPEED: '0',
      ACACIA_WEBHOOK_ALLOW_PRIVATE: 'on',
    });
    client = server.client;
    f = await buildFixture(client);
  });
  after(() => server.close());

  it('refuses bodies that are not UTF-8 instead of storing replacement characters', async () => {
    const body = Buffer.concat([Buffer.from('{"workgroup_name": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    assertError(await json('PUT', `/workgroups/${f.workgroup}`, body), 400, 'Bad-Request', 'body');
    assert.equal(assertOk(await client.workgroups.get(f.workgroup)).name, 'fuzz');
  });

  it('refuses strings with lone surrogates or NUL, naming the field (PostgreSQL cannot store NUL)', async () => {
    assertError(
      await json('POST', `/add-ons/${f.installedAddon}/configs`, '{"config_name": "c", "config_value": "\\ud800"}'),
      400,
      'Bad-Request',
      'config_value',
    );
    assertError(
      await json('POST', `/workgroups/${f.workgroup}/allow_list`, '{"cidr": "10.7.0.0/16", "note": "a\\u0000b"}'),
      400,
      'Bad-Request',
      'note',
    );
    assertError(
      await json('POST', `/workgroups/${f.workgroup}/allow_list`, '{"cidr": "10.7.0.0/16", "n\\u0000": 1}'),
      400,
      'Bad-Request',
      'n\u0000',
    );
  });

  it('refuses bodies nested deeper than 64 levels (a deep enable_configuration was an internal error)', async () => {
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const body = `{"addons": [{"addons_id": "${f.addon}", "enable": true, "enable_configuration": ${deep}}]}`;
    assertError(
      await json('PUT', `/workgroups/${f.workgroup}/workspaces/${f.workspace}`, body),
      400,
      'Bad-Request',
      'body',
    );
    const nested = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    assertOk(
      await json(
        'PUT',
        `/workgroups/${f.workgroup}/workspaces/${f.workspace}`,
        `{"addons": [{"addons_id": "${f.addon}", "enable": true, "enable_configuration": ${nested(60)}}]}`,
      ),
    );
  });

  it('refuses a body with fields on a route that takes none, and still accepts {} there', async () => {
    assertError(
      await client.request('DELETE', `${API}/cloud-providers/${f.cloudProvider}`, { body: { force: true } }),
      400,
      'Bad-Request',
      'force',
    );
    assertError(
      await client.request('PUT', `${API}/workgroups/${f.workgroup}/allow_list/enable`, { body: [] }),
      400,
      'Bad-Request',
      'body',
    );
    assertOk(await client.request('PUT', `${API}/workgroups/${f.workgroup}/allow_list/disable`, { body: {} }));
    assert.equal(assertOk(await client.workgroups.get(f.workgroup)).enable_allow_list, false);
    assertOk(await client.cloudProviders.get(f.cloudProvider));
  });

  it('refuses a malformed If-Match on every route, including those without versions', async () => {
    assertError(
      await client.request('DELETE', `${API}/apikeys/${f.keyName}`, { headers: { 'if-match': 'latest' } }),
      400,
      'Bad-Request',
      'If-Match',
    );
    assert.ok(
      resultOf(await client.apiKeys.list()).some((k) => k.key_name === f.keyName),
      'the key was not revoked',
    );
    assertError(
      await client.request('GET', `${API}/addons`, { headers: { 'if-match': '"1' } }),
      400,
      'Bad-Request',
      'If-Match',
    );
  });

  it('refuses NUL in path and query parameters, naming them (PostgreSQL answered 500)', async () => {
    assertError(await client.request('GET', `${API}/workgroups/a%00b`), 400, 'Bad-Request', 'workgroupID');
    assertError(await client.request('GET', `${API}/operations?resource_id=a%00b`), 400, 'Bad-Request', 'resource_id');
  });

  it('answers bad percent-encoding and over-long parameters with envelopes (not in Fastify’s own shape)', async () => {
    assertError(await client.request('GET', `${API}/workgroups/%FF%FE`), 400, 'Bad-Request', 'path');
    assertError(await client.request('GET', `${API}/workgroups/${'x'.repeat(129)}`), 400, 'Bad-Request', 'workgroupID');
    assertError(await client.request('GET', `${API}/workgroups/${'x'.repeat(2000)}`), 400, 'Bad-Request', 'path');
  });

  it('reaches a config whose 64-character name is percent-encoded past 100 characters (was 414)', async () => {
    const name = 'ü'.repeat(64);
    const id = resultOf(await client.addons.createConfig(f.installedAddon, { config_name: name, config_value: 'v' }));
    assert.deepEqual(
      resultOf(await client.addons.listConfigs(f.installedAddon, name)).map((c) => c.id),
      [id],
    );
  });

  it('claims no Idempotency-Key for a request refused by validation, so the corrected retry runs', async () => {
    const key = 'fuzz-retry-1';
    assertError(
      await client.workgroups.create({ cloud_provider_id: f.publicProvider, name: 7 } as never, {
        idempotencyKey: key,
      }),
      400,
      'Bad-Request',
      'name',
    );
    const first = await client.workgroups.create(
      { cloud_provider_id: f.publicProvider, name: 'fuzz-retried' },
      { idempotencyKey: key },
    );
    assertOk(first);
    const replay = await client.workgroups.create(
      { cloud_provider_id: f.publicProvider, name: 'fuzz-retried' },
      { idempotencyKey: key },
    );
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.body, first.body);
  });
});
