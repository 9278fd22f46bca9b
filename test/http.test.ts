import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { HTTPMethods } from 'fastify';
import { request } from 'undici';
import { API_PREFIX, type AcaciaClient } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';

const API = API_PREFIX;

describe(`HTTP contract (${storeName})`, () => {
  let server: TestServer;
  let client: AcaciaClient;

  before(async () => {
    server = await startTestServer();
    client = server.client;
  });
  after(() => server.close());

  it('answers an unknown route with a 404 envelope', async () => {
    assertError(await client.request('GET', `${API}/nothing-here`), 404, 'Not-Found', 'path');
    assertError(await client.request('GET', '/not/even/the/api'), 404, 'Not-Found', 'path');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await client.request('PATCH', `${API}/workgroups`);
    assertError(res, 405, 'Bad-Request', 'method');
    assert.equal(res.headers.allow, 'GET, HEAD, POST');
    const res2 = await client.request('POST', `${API}/workgroups/some-id`, { body: {} });
    assertError(res2, 405, 'Bad-Request', 'method');
    assert.match(String(res2.headers.allow), /DELETE.*GET.*PUT/);
  });

  it('answers malformed JSON with 400 naming the body', async () => {
    assertError(await client.request('POST', `${API}/workgroups`, { body: '{"name": ' }), 400, 'Bad-Request', 'body');
    assertError(await client.request('POST', `${API}/workgroups`, { body: '[1,2]' }), 400, 'Bad-Request', 'body');
    assertError(
      await client.request('POST', `${API}/workgroups`, { body: '{"__proto__": {"x": 1}}' }),
      400,
      'Bad-Request',
      'body',
    );
  });

  it('answers a non-JSON body with 415', async () => {
    const res = await client.request('POST', `${API}/workgroups`, {
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assertError(res, 415, 'Bad-Request', 'Content-Type');
    assertError(
      await client.request('POST', `${API}/workgroups`, { body: 'hello', headers: { 'content-type': 'text/plain' } }),
      415,
      'Bad-Request',
      'Content-Type',
    );
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await client.request('POST', `${API}/workgroups`, {
      body: { cloud_provider_id: 'x', name: 'y'.repeat(1024 * 1024 + 10) },
    });
    assertError(res, 413, 'Bad-Request', 'body');
  });

  it('names the missing required field when a body-taking route gets no body', async () => {
    assertError(await client.request('POST', `${API}/workgroups`), 400, 'Bad-Request', 'cloud_provider_id');
  });

  it('echoes a safe X-Request-ID and invents one otherwise', async () => {
    const res = await client.request('GET', `${API}/workgroups`, { headers: { 'x-request-id': 'trace-abc.123' } });
    assert.equal(res.headers['x-request-id'], 'trace-abc.123');
    assert.equal(res.body.RequestID, 'trace-abc.123');
    const err = await client.request('GET', `${API}/nope`, { headers: { 'x-request-id': 'trace-err' } });
    assertError(err, 404, 'Not-Found', 'path');
    assert.equal(err.body.RequestID, 'trace-err');
    const unsafe = await client.request('GET', `${API}/workgroups`, {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    assert.match(unsafe.body.RequestID, /^[0-9a-f-]{36}$/);
    assert.equal(unsafe.headers['x-request-id'], unsafe.body.RequestID);
  });

  it('serves health, readiness and metrics without a key', async () => {
    const anon = client.withKey(undefined);
    assert.deepEqual(assertOk(await anon.request('GET', '/healthz')), { status: 'ok' });
    const ready = assertOk(await anon.request<{ status: string; checks: Record<string, boolean> }>('GET', '/readyz'));
    assert.equal(ready.status, 'ready');
    assert.equal(ready.checks.store, true);
    await client.workgroups.list();
    const metrics = await request(`${server.url}/metrics`);
    assert.equal(metrics.statusCode, 200);
    const text = await metrics.body.text();
    assert.match(
      text,
      /acacia_http_requests_total\{method="GET",route="\/controller\/v4\/v2\/workgroups",status_code="200"\} \d+/,
    );
    assert.match(
      text,
      new RegExp(
        'acacia_http_request_duration_seconds_bucket\\{le="0\\.005",method="GET",' +
          'route="/controller/v4/v2/workgroups",status_code="200"\\}',
      ),
    );
  });

  it('counts each answer once in the latency histogram: cumulative buckets, +Inf and _count = requests', async () => {
    const route = `${API}/workgroups/:workgroupID`;
    const series = `method="GET",route="${route}",status_code="404"`;
    const seen = async () => {
      const text = await (await request(`${server.url}/metrics`)).body.text();
      const value = (line: string) =>
        Number(
          text
            .split('\n')
            .find((l) => l.startsWith(line))
            ?.split(' ')
            .pop() ?? 0,
        );
      const buckets = [
        '0.001',
        '0.0025',
        '0.005',
        '0.01',
        '0.025',
        '0.05',
        '0.1',
        '0.25',
        '0.5',
        '1',
        '2.5',
        '5',
        '+Inf',
      ].map((le) => value(`acacia_http_request_duration_seconds_bucket{le="${le}",${series}}`));
      return {
        buckets,
        count: value(`acacia_http_request_duration_seconds_count{${series}}`),
        sum: value(`acacia_http_request_duration_seconds_sum{${series}}`),
        total: value(`acacia_http_requests_total{${series}}`),
      };
    };
    const before = await seen();
    for (let i = 0; i < 3; i++)
      assertError(await client.workgroups.get(`missing-${i}`), 404, 'Not-Found', 'workgroupID');
    const after = await seen();
    assert.equal(after.count - before.count, 3);
    assert.equal(after.total - before.total, 3);
    assert.equal(after.buckets.at(-1), after.count);
    assert.ok(after.sum > before.sum);
    after.buckets.forEach((n, i) => assert.ok(i === 0 || n >= after.buckets[i - 1]!, `bucket ${i} is cumulative`));
  });

  it('publishes a valid OpenAPI 3.1 document listing every route with the x-api-key scheme', async () => {
    const res = await request(`${server.url}/openapi.json`);
    assert.equal(res.statusCode, 200);
    const doc = (await res.body.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { security?: unknown[] }>>;
      components: { securitySchemes: Record<string, { type: string; name?: string; in?: string }> };
    };
    assert.equal(doc.openapi, '3.1.0');
    const validation = await new Validator().validate(doc as never);
    assert.equal(validation.valid, true, JSON.stringify(validation.errors));
    assert.deepEqual(doc.components.securitySchemes['x-api-key'], {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description: 'An Acacia API key.',
    });
    assert.equal(doc.components.securitySchemes.bearer!.type, 'http');

    const listed = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    // Every route of the design's route table (DESIGN §6), written out here so a route that
    // went missing from the app or from the document fails the test.
    const wg = `${API}/workgroups/{workgroupID}`;
    const ws = `${wg}/workspaces/{workspaceID}`;
    const expected = [
      `POST ${API}/workgroups`,
      `GET ${API}/workgroups`,
      `GET ${wg}`,
      `PUT ${wg}`,
      `DELETE ${wg}`,
      `POST ${wg}/allow_list`,
      `GET ${wg}/allow_list`,
      `GET ${wg}/allow_list/current`,
      `PUT ${wg}/allow_list/enable`,
      `PUT ${wg}/allow_list/disable`,
      `PUT ${wg}/allow_list/{id}`,
      `DELETE ${wg}/allow_list/{id}`,
      `GET ${wg}/databases`,
      `GET ${wg}/databases/{databaseID}`,
      `PUT ${wg}/databases/{databaseID}`,
      `DELETE ${wg}/databases/{databaseID}`,
      `POST ${wg}/workspaces`,
      `GET ${wg}/workspaces`,
      `GET ${ws}`,
      `PUT ${ws}`,
      `DELETE ${ws}`,
      `POST ${ws}/pause`,
      `POST ${ws}/resume`,
      `POST ${ws}/refresh`,
      `GET ${API}/workspaces/meta`,
      `POST ${ws}/schedules`,
      `GET ${ws}/schedules`,
      `GET ${ws}/schedules/{scheduleID}`,
      `PUT ${ws}/schedules/{scheduleID}`,
      `DELETE ${ws}/schedules/{scheduleID}`,
      `GET ${API}/workspaces/{workspaceID}/schedules`,
      `GET ${API}/workspaces/{workspaceID}/schedules/{scheduleID}`,
      `PUT ${API}/workspaces/{workspaceID}/schedules/{scheduleID}`,
      `DELETE ${API}/workspaces/{workspaceID}/schedules/{scheduleID}`,
      `GET ${ws}/backups`,
      `DELETE ${ws}/backups`,
      `POST ${ws}/backups`,
      `POST ${ws}/backups/restore`,
      `POST ${ws}/backups/schedule`,
      `GET ${API}/workspaces/{workspaceID}/backups`,
      `GET ${API}/workspaces/{workspaceID}/backups/schedule`,
      `POST ${API}/workspaces/{workspaceID}/backups/schedule`,
      `GET ${API}/workspaces/{workspaceID}/backups/restore/{jobID}/status`,
      `POST ${ws}/dbuser`,
      `GET ${ws}/dbuser`,
      `PUT ${ws}/dbuser`,
      `DELETE ${ws}/dbuser`,
      `POST ${ws}/graph/request`,
      `GET ${API}/addons`,
      `POST ${API}/addons/{addonsID}/install`,
      `GET ${API}/addons/{addonsID}/workspaces`,
      `GET ${API}/installed-addons`,
      `POST ${API}/add-ons/{installedAddonsID}/configs`,
      `GET ${API}/installed-addons/{installedAddonsID}/configs/{configName}`,
      `DELETE ${API}/add-ons/{installedAddonsID}/configs/{configID}`,
      `POST ${API}/cloud-providers`,
      `POST ${API}/cloud-providers/validate`,
      `GET ${API}/cloud-providers`,
      `GET ${API}/cloud-providers/{cloudProviderID}`,
      `PUT ${API}/cloud-providers/{cloudProviderID}`,
      `PUT ${API}/cloud-providers/{cloudProviderID}/upgrade`,
      `DELETE ${API}/cloud-providers/{cloudProviderID}`,
      `GET ${API}/operations/{id}`,
      `GET ${API}/operations`,
      `GET ${API}/events`,
      `POST ${API}/webhooks`,
      `GET ${API}/webhooks`,
      `GET ${API}/webhooks/{webhook_id}`,
      `DELETE ${API}/webhooks/{webhook_id}`,
      `GET ${API}/webhooks/{webhook_id}/deliveries`,
      `POST ${API}/apikeys`,
      `GET ${API}/apikeys`,
      `GET ${API}/apikeys/current`,
      `DELETE ${API}/apikeys/{key_name}`,
      `DELETE ${API}/apikeys`,
      // The real service's newer operations (../shared/vendor/savanna-openapi.json) and their companions.
      `GET ${API}/pooled-workgroups/acquire`,
      `POST ${ws}/upgrade`,
      `GET ${API}/workspaces/upgrade-next-window`,
      `GET ${ws}/backups/{job}/status`,
      `GET ${ws}/backups/schedule`,
      `GET ${API}/cloud-providers/public`,
      'GET /cloud-providers/all',
      `GET ${API}/addons/meta`,
      `POST ${API}/addons/request`,
      `GET ${API}/addons/requests`,
      `GET ${API}/installed-addons/{installedAddonsID}`,
      `PUT ${API}/add-ons/{installedAddonsID}/configs/{configID}`,
      'GET /metrics/{workgroupID}/{workspaceID}',
      'GET /observability/{workgroupID}/metrics',
      `GET ${API}/billing/resource-pricing`,
      `GET ${API}/billing/credit`,
      `GET ${API}/billing/status`,
      `GET ${API}/billing/validation`,
      `GET ${API}/billing/account`,
      `GET ${API}/billing/credit-cards`,
      `DELETE ${API}/billing/credit-cards/{cardID}`,
      `POST ${API}/billing/credit-cards/{cardID}`,
      `POST ${API}/billing/payment/invoice`,
      `POST ${API}/billing/session`,
      `POST ${ws}/onboarding/chat`,
      `GET ${API}/org/self`,
      `PUT ${API}/org`,
      `GET ${API}/org/quota`,
      `GET ${API}/org/api-keys`,
      `POST ${API}/org/api-keys`,
      `DELETE ${API}/org/api-keys`,
      'GET /users',
      'POST /users/invitations',
      'POST /users/invitations/accept',
      'PUT /users/{userId}/roles',
      'PUT /users/{userId}',
      'GET /healthz',
      'GET /readyz',
      'GET /_status',
      'GET /metrics',
      'POST /_test/reset',
      'POST /_test/chaos',
      'GET /_test/chaos',
      'DELETE /_test/chaos',
      'DELETE /_test/chaos/{chaos_rule_id}',
    ];
    const app = server.running.app;
    const served = (route: string) => {
      const [method, path] = route.split(' ') as [HTTPMethods, string];
      return app.hasRoute({ method, url: path.replace(/\{(\w+)\}/g, ':$1') });
    };
    for (const route of expected) {
      assert.ok(served(route), `${route} is not served`);
      assert.ok(listed.includes(route), `${route} is missing from /openapi.json`);
    }
    // …and the document lists nothing else: no stale or invented route.
    assert.deepEqual(
      listed.filter((r) => !expected.includes(r)),
      [],
    );
    assert.deepEqual(doc.paths['/healthz']!.get!.security, []);
  });

  it('declares the error Result types the seed spec gives operations 8, 11 and 12', async () => {
    const doc = (await (await request(`${server.url}/openapi.json`)).body.json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            responses: Record<
              string,
              { content: { 'application/json': { schema: { properties: Record<string, { type?: string }> } } } }
            >;
          }
        >
      >;
    };
    const errorResult = (path: string, method: string, status: string) =>
      doc.paths[path]![method]!.responses[status]!.content['application/json'].schema.properties.Result?.type;
    const wg = `${API}/workgroups/{workgroupID}`;
    for (const status of ['400', '500']) {
      assert.equal(errorResult(`${wg}/allow_list`, 'post', status), 'string');
      assert.equal(errorResult(`${wg}/allow_list/{id}`, 'put', status), 'string');
      assert.equal(errorResult(`${wg}/workspaces/{workspaceID}/schedules/{scheduleID}`, 'put', status), 'object');
    }
  });

  it('serves a browsable reference at /docs', async () => {
    const res = await request(`${server.url}/docs`);
    const body = await res.body.text();
    assert.equal(res.statusCode, 200);
    assert.match(body, /swagger-ui/i);
  });

  it('answers GET /workspaces/meta with the catalogs and the tier limits', async () => {
    const meta = assertOk(await client.meta());
    assert.equal(meta.tier, 'enterprise');
    assert.equal(meta.default_tg_version, '4.2.1');
    assert.deepEqual(
      meta.workspace_types.find((t) => t.typeName === 'TG-1'),
      {
        typeName: 'TG-1',
        cpu: '8',
        memory: '64Gi',
        partition: 1,
        max_topology_size_bytes: 32 * 1024 ** 3,
        allowed: true,
      },
    );
    assert.equal(
      meta.workspace_types.find((t) => t.typeName === 'TG-128')!.allowed,
      false,
      'above the enterprise max size',
    );
    assert.equal(meta.regions_by_platform.aws.length, 10);
    // The real service's shape: regions as {name, description}, tgVersions, workspaceTypes.
    assert.equal(meta.regions.filter((r) => r.platform === 'aws').length, 10);
    assert.ok(meta.regions.some((r) => r.name === 'us-east-1' && r.description.length > 0));
    assert.deepEqual(meta.tgVersions.at(-1), {
      name: '4.2.1',
      image: 'tigergraph/tigergraph:4.2.1',
      channel: 'stable',
      allow_create: true,
      allow_upgrade: true,
      incompatible_upgrades_from: [],
      orgs: [],
    });
    assert.deepEqual(
      meta.workspaceTypes.map((t) => t.typeName),
      meta.workspace_types.filter((t) => t.allowed).map((t) => t.typeName),
    );
    assert.deepEqual(
      meta.workspaceTypes.find((t) => t.typeName === 'TG-1'),
      {
        typeName: 'TG-1',
        cpu: '8',
        memory: '64Gi',
        partition: 1,
        ha: 1,
        // With HA, a single-partition size keeps 3 copies (docs/compatibility.md).
        ha_replicas: 3,
      },
    );
    assert.deepEqual(
      meta.addons.map((a) => a.title),
      ['GraphStudio', 'Insights', 'GraphQL', 'CoPilot'],
    );
    assert.equal(meta.tier_limits.rw_workspaces, 4);
    const free = await server.orgClient('free-org', { tier: 'free' });
    const freeMeta = assertOk(await free.meta());
    assert.equal(freeMeta.tier, 'free');
    assert.equal(freeMeta.workspace_types.find((t) => t.typeName === 'TG-6')!.allowed, false);
  });

  it('lists one Active public provider per platform and region, visible to every organisation', async () => {
    const providers = assertOk(await client.cloudProviders.list());
    assert.equal(providers.length, 14);
    assert.ok(providers.every((p) => p.type === 'public' && p.status === 'Active' && p.org_id === undefined));
    const other = await server.orgClient('another-org');
    assert.deepEqual(
      assertOk(await other.cloudProviders.list()).map((p) => p.id),
      providers.map((p) => p.id),
    );
    const one = await client.cloudProviders.get(providers[0]!.id);
    assert.deepEqual(assertOk(one), providers[0]);
    assert.equal(one.headers.etag, '"1"');
    assertError(await client.cloudProviders.get('missing'), 404, 'Not-Found', 'cloudProviderID');
  });
});
