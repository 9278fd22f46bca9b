import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AcaciaOperationFailedError, resultOf, type AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { runCli } from './helpers/cli.js';
import { gatewayGet } from './helpers/gateway.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const env = { ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' };

describe(`chaos rules are refused while fault injection is off (${storeName})`, () => {
  let server: TestServer;
  before(async () => (server = await startTestServer({ ...env, ACACIA_FAULT_INJECTION: 'off' })));
  after(() => server.close());

  it('answers every chaos route 403 API-Disabled naming the setting, and stores nothing', async () => {
    const c = server.client;
    const refused = assertError(
      await c.chaos.add({ endpoint: 'listWorkgroups', error_rate: 1, ttl_seconds: 60 }),
      403,
      'API-Disabled',
      'ACACIA_FAULT_INJECTION',
    );
    assert.match(refused.Reason, /ACACIA_FAULT_INJECTION=on/);
    assertError(await c.chaos.list(), 403, 'API-Disabled', 'ACACIA_FAULT_INJECTION');
    assertError(await c.chaos.clear(), 403, 'API-Disabled', 'ACACIA_FAULT_INJECTION');
    assertError(await c.chaos.delete('nothing'), 403, 'API-Disabled', 'ACACIA_FAULT_INJECTION');
    const { db } = server.running.services.store;
    const rows = await db.selectFrom('chaos_rules').selectAll().execute();
    assert.deepEqual(rows, []);
    assertOk(await c.workgroups.list());
  });
});

describe(`chaos rules (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;

  before(async () => {
    server = await startTestServer({ ...env, ACACIA_FAULT_INJECTION: 'on', ACACIA_CHAOS_MAX_RULES: '5' });
    c = server.client;
  });
  after(() => server.close());

  const stored = async () =>
    (await server.running.services.store.db.selectFrom('chaos_rules').selectAll().execute()).length;

  it('fails the matched endpoint with its envelope, lets others through, and ends on the clock', async () => {
    const rule = assertOk(
      await c.chaos.add({
        endpoint: 'listWorkgroups',
        error_rate: 1,
        status: 429,
        error_type: 'Quota-Exceed',
        message: 'Slow down.',
        ttl_seconds: 300,
      }),
    );
    assert.equal(rule.action, 'fail');
    const failed = await c.workgroups.list();
    const detail = assertError(failed, 429, 'Quota-Exceed', '');
    assert.match(detail.Reason, new RegExp(rule.chaos_rule_id));
    assert.equal(failed.body.Message, 'Slow down.');
    assertError(await c.workgroups.list(), 429, 'Quota-Exceed', '');
    assertOk(await c.meta());
    const [listed] = assertOk(await c.chaos.list());
    assert.equal(listed!.hits, 2, 'each matched request is counted');

    assertOk(await c.moveClock({ advance_seconds: 299 }));
    assertError(await c.workgroups.list(), 429, 'Quota-Exceed', '');
    assertOk(await c.moveClock({ advance_seconds: 1 }));
    assertOk(await c.workgroups.list());
    assert.deepEqual(assertOk(await c.chaos.list()), [], 'an expired rule is no longer listed');
  });

  it('defaults to a 503 Internal-Error envelope, spreads an error rate evenly, matches route patterns', async () => {
    const wg = await newWorkgroup(c);
    const rule = assertOk(
      await c.chaos.add({ method: 'GET', path: '/workgroups/*', error_rate: 0.5, ttl_seconds: 60 }),
    );
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await c.workgroups.get(wg)).status);
    assert.deepEqual(answers, [200, 503, 200, 503, 200, 503]);
    const failed = await c.workgroups.get(wg);
    assertOk(await c.workgroups.list());
    const detail = assertError(await c.workgroups.get(wg), 503, 'Internal-Error', '');
    assert.match(detail.Reason, /chaos rule/);
    assert.equal(failed.status, 200);
    assert.equal(assertOk(await c.chaos.delete(rule.chaos_rule_id)).hits, 8);
    assertOk(await c.workgroups.get(wg));
    assertError(await c.chaos.delete(rule.chaos_rule_id), 404, 'Not-Found', 'chaos_rule_id');
  });

  it('adds latency to matched requests only', async () => {
    assertOk(await c.chaos.add({ endpoint: 'getWorkspaceMeta', latency_ms: 300, ttl_seconds: 60 }));
    let started = performance.now();
    assertOk(await c.meta());
    assert.ok(performance.now() - started >= 290, 'the matched request waited');
    started = performance.now();
    assertOk(await c.workgroups.list());
    assert.ok(performance.now() - started < 290, 'another request did not');
    assert.equal(assertOk(await c.chaos.clear()).length, 1);
  });

  it('refuses bad rules with 400 naming the field, storing nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ endpoint: 'listWorkgroups', error_rate: 2, ttl_seconds: 60 }, 'error_rate'],
      [{ endpoint: 'noSuchThing', error_rate: 1, ttl_seconds: 60 }, 'endpoint'],
      [{ endpoint: 'moveTestClock', error_rate: 1, ttl_seconds: 60 }, 'endpoint'],
      [{ endpoint: 'listWorkgroups', error_rate: 1 }, 'ttl_seconds'],
      [{ endpoint: 'listWorkgroups', error_rate: 1, ttl_seconds: 24 * 3600 + 1 }, 'ttl_seconds'],
      [{ endpoint: 'listWorkgroups', error_rate: 1, expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
      [{ endpoint: 'listWorkgroups', error_rate: 1, latency_ms: 5, ttl_seconds: 60 }, 'error_rate'],
      [{ endpoint: 'listWorkgroups', latency_ms: 50_000, ttl_seconds: 60 }, 'latency_ms'],
      [{ region: 'aws/mars-north-1', ttl_seconds: 60 }, 'region'],
      [{ region: 'aws/us-east-1', error_rate: 1, ttl_seconds: 60 }, 'error_rate'],
    ];
    for (const [body, field] of cases) assertError(await c.chaos.add(body as never), 400, 'Bad-Request', field);
    assert.equal(await stored(), 0);
  });

  it('keeps to the cap however many adds race', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => c.chaos.add({ endpoint: 'getWorkgroup', latency_ms: 0, ttl_seconds: 60 })),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 5);
    for (const refused of answers.filter((a) => a.status !== 200)) assertError(refused, 403, 'Quota-Exceed', 'body');
    assert.equal(assertOk(await c.chaos.list()).length, 5);
    assert.equal(await stored(), 5);
    assertOk(await c.chaos.clear());
    assert.equal(await stored(), 0);
  });

  it('takes a region down: gateway 503 and failing operations there, other regions fine, until cleared', async () => {
    const east1 = await newWorkgroup(c);
    const east2 = resultOf(
      await c.workgroups.create({ cloud_provider_id: await publicProvider(c, 'aws', 'us-east-2') }),
    ).workgroup_id;
    const down = await activeWorkspace(c, east1, { name: 'down' });
    const fine = await activeWorkspace(c, east2, { name: 'fine' });
    const rule = assertOk(await c.chaos.add({ region: 'aws/us-east-1', ttl_seconds: 600 }));
    assert.equal(rule.action, 'region_outage');

    const gateway = server.running.gatewayUrl;
    const refused = await gatewayGet(gateway, `/w/${down.workspace_id}/restpp/echo`);
    assert.equal(refused.status, 503);
    assert.match(String(refused.body.message), /region aws\/us-east-1 is unavailable/);
    assert.equal((await gatewayGet(gateway, `/w/${fine.workspace_id}/restpp/echo`)).status, 401);

    assertOk(await c.workspaces.pause(east1, down.workspace_id!));
    const op = resultOf(await c.operations.list({ resource_id: down.workspace_id! })).find(
      (o) => o.kind === 'workspace.pause',
    );
    const err = await c.waitFor({ operation: op!.id }).catch((e: unknown) => e);
    assert.ok(err instanceof AcaciaOperationFailedError, String(err));
    assert.match(err.message, /region aws\/us-east-1 is unavailable \(chaos rule/);
    const events = resultOf(await c.events.list({ since: 0, limit: 1000 }));
    assert.ok(
      events.some((e) => e.type === 'operation.failed' && JSON.stringify(e.data).includes('region aws/us-east-1')),
      'the failure is an event',
    );
    assertOk(await c.workspaces.pause(east2, fine.workspace_id!));
    const fineOp = resultOf(await c.operations.list({ resource_id: fine.workspace_id! })).find(
      (o) => o.kind === 'workspace.pause',
    );
    assert.equal((await c.waitFor({ operation: fineOp!.id })).state, 'succeeded');
    assert.ok(assertOk(await c.chaos.list())[0]!.hits >= 2);

    assertOk(await c.chaos.clear());
    assert.equal((await gatewayGet(gateway, `/w/${down.workspace_id}/restpp/echo`)).status, 401, 'recovered');
  });

  it('is driven from the CLI: add, list and clear with -o json, non-zero on a refusal', async () => {
    const env = { ACACIA_URL: server.url, ACACIA_API_KEY: server.bootstrapKey };
    const cli = (...args: string[]) => runCli([...args, '-o', 'json'], env);
    const added = await cli(
      'chaos',
      'add',
      '--endpoint',
      'createWorkspace',
      '--error-rate',
      '1',
      '--status',
      '503',
      '--ttl',
      '5m',
    );
    assert.equal(added.code, 0, added.stderr);
    const rule = JSON.parse(added.stdout) as { chaos_rule_id: string; expires_at: string };
    const region = await cli('chaos', 'add', '--region', 'aws/us-east-1', '--ttl', '10m');
    assert.equal(region.code, 0, region.stderr);
    const slow = await cli(
      'chaos',
      'add',
      '--path',
      '/workgroups',
      '--method',
      'get',
      '--latency',
      '0-5ms',
      '--ttl',
      '1h',
    );
    assert.equal(slow.code, 0, slow.stderr);
    const listed = JSON.parse((await cli('chaos', 'list')).stdout) as Array<{
      action: string;
      latency_max_ms?: number;
    }>;
    assert.deepEqual(
      listed.map((r) => r.action),
      ['fail', 'region_outage', 'latency'],
    );
    assert.equal(listed[2]!.latency_max_ms, 5);
    const refused = await cli('chaos', 'add', '--endpoint', 'createWorkspace', '--error-rate', '2', '--ttl', '1m');
    assert.equal(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, /error: Bad-Request: error_rate: .*\(HTTP 400\)/);
    const one = await cli('chaos', 'clear', rule.chaos_rule_id);
    assert.equal(one.code, 0, one.stderr);
    assert.equal((JSON.parse(one.stdout) as { chaos_rule_id: string }).chaos_rule_id, rule.chaos_rule_id);
    const rest = await cli('chaos', 'clear');
    assert.equal((JSON.parse(rest.stdout) as unknown[]).length, 2);
    assert.deepEqual(JSON.parse((await cli('chaos', 'list')).stdout), []);
  });
});
