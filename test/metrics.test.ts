import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import parsePrometheusText, { type ParsedFamily } from 'parse-prometheus-text-format';
import { request } from 'undici';
import { resultOf, type AcaciaClient, type WorkspaceRecord } from '../src/client/index.js';
import { prometheusText } from '../src/http/prometheus-text.js';
import { WorkspaceMetricsService, summary } from '../src/domain/workspace-metrics.js';
import type { Principal } from '../src/domain/principal.js';
import { assertError, assertOk } from './helpers/assert.js';
import { runCli } from './helpers/cli.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { hostTarget, socialSchema, TigerGraphReplay, type Auth } from './helpers/tigergraph-client.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

/**
 * Workspace metrics as a Prometheus server scrapes them: the text parsed by a real parser,
 * under the simulated driver (modelled figures) and the local one (the data-plane process's).
 */

const TEXT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Scrapes through the typed client; the text is its Result. */
async function scrape(c: AcaciaClient, wg: string, ws: string): Promise<{ text: string; families: ParsedFamily[] }> {
  const res = await c.metrics.workspace(wg, ws);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.headers['content-type'], TEXT_TYPE);
  const text = assertOk(res);
  return { text, families: parsePrometheusText(text) };
}

/** The one value of a family's sample whose labels include `labels`. */
function value(families: ParsedFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  assert.ok(family, `no family ${name}`);
  const matches = family.metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  assert.equal(matches.length, 1, `${name}${JSON.stringify(labels)}: ${JSON.stringify(family.metrics)}`);
  return Number(matches[0]!.value);
}

/** Every sample of a histogram, read from the text (the parser folds labelled histograms into one). */
function histogram(text: string, name: string) {
  const series = new Map<string, { buckets: Array<[string, number]>; sum?: number; count?: number }>();
  for (const line of text.split('\n')) {
    const m = /^(\w+?)(_bucket|_sum|_count)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const endpoint = /endpoint="([^"]*)"/.exec(m[3]!)![1]!;
    const s = series.get(endpoint) ?? { buckets: [] };
    series.set(endpoint, s);
    if (m[2] === '_bucket') s.buckets.push([/le="([^"]*)"/.exec(m[3]!)![1]!, Number(m[4])]);
    else if (m[2] === '_sum') s.sum = Number(m[4]);
    else s.count = Number(m[4]);
  }
  return series;
}

describe('the Prometheus text', () => {
  it('escapes HELP and label values so a parser reads them back as they were', () => {
    const awkward = 'a "quoted" back\\slash\nand a line feed';
    const text = prometheusText([
      {
        name: 'tigergraph_test',
        help: 'help with a back\\slash\nand a line feed',
        type: 'gauge',
        samples: [
          { name: 'tigergraph_test', labels: { odd: awkward }, value: 1.5 },
          { name: 'tigergraph_test', labels: { odd: 'plain' }, value: Infinity },
        ],
      },
    ]);
    assert.equal(text.split('\n').length, 5, 'four lines: no raw line feed inside one');
    const [family] = parsePrometheusText(text);
    assert.equal(family!.type, 'GAUGE');
    assert.deepEqual(
      family!.metrics.map((m) => [m.labels?.odd, m.value]),
      [
        [awkward, '1.5'],
        ['plain', '+Inf'],
      ],
    );
  });
});

describe(`workspace metrics, simulated driver (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  let ws: WorkspaceRecord;
  const advance = async (seconds: number) => assertOk(await c.moveClock({ advance_seconds: seconds }));

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    c = server.client;
    wg = await newWorkgroup(c, 'metrics');
    ws = await activeWorkspace(c, wg, { name: 'scraped', workspace_type_name: 'TG-2' });
  });
  after(async () => server?.close());

  it('answers Prometheus text 0.0.4 with tigergraph_* samples labelled by workgroup and workspace', async () => {
    const { text, families } = await scrape(c, wg, ws.workspace_id!);
    for (const f of families) {
      assert.match(f.name, /^tigergraph_/);
      assert.ok(f.help.length > 0, `${f.name} has HELP`);
      assert.ok(text.includes(`# TYPE ${f.name} `), `${f.name} has TYPE`);
      for (const m of f.metrics) {
        if (f.type === 'HISTOGRAM') continue;
        assert.equal(m.labels?.workspace_id, ws.workspace_id);
        assert.equal(m.labels?.workgroup_id, wg);
      }
    }
    const node = { service_name: '' };
    assert.equal(value(families, 'tigergraph_up'), 1);
    assert.equal(value(families, 'tigergraph_service_status', { service_name: 'RESTPP' }), 6);
    // The cores and memory the catalog gives the size (cpu "2", memory "8Gi").
    const memoryMb = parseInt(ws.workspace_type!.memory!, 10) * 1024;
    assert.equal(value(families, 'tigergraph_cpu_logical_cores_total', node), Number(ws.workspace_type!.cpu));
    assert.equal(value(families, 'tigergraph_memory_total', node), memoryMb);
    const cpu = value(families, 'tigergraph_cpu_usage', node);
    assert.ok(cpu > 0 && cpu < 100, `cpu ${cpu}`);
    assert.equal(value(families, 'tigergraph_cpu_available', node), 100 - cpu);
    const memory = value(families, 'tigergraph_memory_usage', node);
    assert.ok(memory > 0 && memory < memoryMb, `memory ${memory}`);
    assert.ok(value(families, 'tigergraph_diskspace_usage', { path_name: 'Gstore' }) > 0);
    assert.equal(value(families, 'tigergraph_vertex_count'), 0);
    assert.equal(value(families, 'tigergraph_edge_count'), 0);
  });

  it('serves one reading for two seconds, then a new one that moves with the clock', async () => {
    await advance(60);
    const first = await scrape(c, wg, ws.workspace_id!);
    const again = await scrape(c, wg, ws.workspace_id!);
    assert.equal(again.text, first.text);
    await advance(150);
    const later = await scrape(c, wg, ws.workspace_id!);
    const cpu = (r: { families: ParsedFamily[] }) => value(r.families, 'tigergraph_cpu_usage', { service_name: '' });
    assert.notEqual(cpu(later), cpu(first), 'the modelled load moves with time');
  });

  it('the workgroup summary gives each metric of the text as its average', async () => {
    await advance(5);
    const { families } = await scrape(c, wg, ws.workspace_id!);
    const other = await activeWorkspace(c, wg, { name: 'second' });
    const summary = assertOk(await c.metrics.workgroup(wg));
    assert.equal(summary.workgroupID, wg);
    assert.deepEqual(
      summary.workspaceMetrics.map((w) => w.workspaceID).sort(),
      [ws.workspace_id, other.workspace_id].sort(),
    );
    const mine = summary.workspaceMetrics.find((w) => w.workspaceID === ws.workspace_id)!.metrics;
    assert.deepEqual(Object.keys(mine).sort(), families.map((f) => f.name).sort());
    for (const f of families) {
      const values = f.metrics.map((m) => Number(m.value));
      const average = values.reduce((a, b) => a + b, 0) / values.length;
      assert.ok(
        Math.abs(mine[f.name]!.avgValue - average) < 1e-9,
        `${f.name}: ${mine[f.name]!.avgValue} vs ${average}`,
      );
    }
  });

  it('a paused workspace answers its state, up 0, and stays paused', async () => {
    const paused = await activeWorkspace(c, wg, { name: 'sleeper' });
    assertOk(await c.workspaces.pause(wg, paused.workspace_id!));
    await waitForStatus(c, wg, paused.workspace_id!, 'Stopped');
    const { families } = await scrape(c, wg, paused.workspace_id!);
    assert.equal(value(families, 'tigergraph_up'), 0);
    assert.equal(value(families, 'tigergraph_service_status', { service_name: 'GPE' }), 18);
    assert.equal(value(families, 'tigergraph_cpu_usage', { service_name: '' }), 0);
    assert.equal(value(families, 'tigergraph_uptime_seconds'), 0);
    assert.equal(resultOf(await c.workspaces.get(wg, paused.workspace_id!)).status, 'Stopped');
    assertOk(await c.workspaces.delete(wg, paused.workspace_id!));
  });

  it('a reading that does not come in time reports the workspace down, and one reading serves the window', async () => {
    const { services } = server.running;
    let calls = 0;
    // A runtime that never answers and ignores its signal.
    const hanging = () => {
      calls++;
      return new Promise<never>(() => undefined);
    };
    const metrics = new WorkspaceMetricsService(
      services.store,
      services.clock,
      services.catalog,
      services.workgroups,
      hanging,
      {
        cacheMs: 2000,
        timeoutMs: 50,
      },
    );
    const p: Principal = {
      orgId: ws.org_id!,
      orgName: 'default',
      tier: 'enterprise',
      keyId: 'k',
      keyName: 'k',
      role: 'viewer',
      workgroupIds: [],
      workspaceIds: [],
      grants: [],
      platformAdmin: false,
    };
    const first = summary(await metrics.workspace(p, wg, ws.workspace_id!));
    assert.equal(first.tigergraph_up!.avgValue, 0);
    assert.equal(first.tigergraph_service_status!.avgValue, 27);
    await Promise.all([1, 2, 3].map(() => metrics.workspace(p, wg, ws.workspace_id!)));
    assert.equal(calls, 1, 'the failed reading serves its window');
    await advance(2);
    await metrics.workspace(p, wg, ws.workspace_id!);
    assert.equal(calls, 2);
  });

  it('refuses what the key may not read: 404 for unknown or foreign resources, 401 without a key', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    assertError(await c.metrics.workspace(wg, missing), 404, 'Not-Found', 'workspaceID');
    assertError(await c.metrics.workspace(missing, ws.workspace_id!), 404, 'Not-Found', 'workgroupID');
    assertError(await c.metrics.workgroup(missing), 404, 'Not-Found', 'workgroupID');
    const stranger = await server.orgClient('metrics-stranger');
    assertError(await stranger.metrics.workspace(wg, ws.workspace_id!), 404, 'Not-Found', 'workgroupID');
    assertError(await stranger.metrics.workgroup(wg), 404, 'Not-Found', 'workgroupID');
    assertError(await c.withKey(undefined).metrics.workspace(wg, ws.workspace_id!), 401, 'Unauthorized', 'x-api-key');
    // Reads are open to every role of the organisation, as a workspace's GET is.
    const viewer = await server.orgClient('default', { role: 'viewer' });
    assert.equal((await scrape(viewer, wg, ws.workspace_id!)).families.length > 0, true);
  });

  it('acacia metrics <workgroup> <workspace> prints the text', async () => {
    const res = await runCli(['metrics', 'metrics', 'scraped'], {
      ACACIA_URL: server.url,
      ACACIA_API_KEY: server.bootstrapKey,
    });
    assert.equal(res.code, 0, res.stderr);
    const families = parsePrometheusText(res.stdout);
    assert.equal(value(families, 'tigergraph_up'), 1);
  });
});

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basic: Auth = { auth: alice };

describe(`workspace metrics, local driver (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  let ws: WorkspaceRecord;
  let tg: TigerGraphReplay;
  const advance = async (seconds: number) => assertOk(await c.moveClock({ advance_seconds: seconds }));

  before(async () => {
    server = await startTestServer({ ACACIA_DRIVER: 'local', ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
    c = server.client;
    wg = await newWorkgroup(c, 'local-metrics');
    const created = resultOf(await c.workspaces.create(wg, { name: 'local-scraped' }));
    const last = await c.waitForWorkspace(wg, created.workspace_id!, (w) => w.status === 'Active', {
      attempts: 600,
      intervalMs: 50,
    });
    assert.equal(last?.status, 'Active');
    ws = last!;
    assertOk(await c.dbUsers.create(wg, ws.workspace_id!, alice));
    tg = new TigerGraphReplay(hostTarget(server.running.gatewayUrl, ws.proxy_host!));
    const defined = await tg.gsql4(basic, socialSchema);
    assert.equal(defined.status, 200, defined.text);
  });
  after(async () => server?.close());

  const upsert = async (ids: string[]) => {
    const vertices = { Person: Object.fromEntries(ids.map((id) => [id, { age: { value: 30 } }])) };
    const res = await tg.request('POST', '/restpp/graph/social', basic, JSON.stringify({ vertices }));
    assert.equal(res.status, 200, res.text);
  };

  it("reads the data-plane process's figures: counts by type, requests, CPU, memory and disk", async () => {
    await upsert(['ann', 'bob', 'cat']);
    const { text, families } = await scrape(c, wg, ws.workspace_id!);
    assert.equal(value(families, 'tigergraph_up'), 1);
    assert.equal(value(families, 'tigergraph_vertex_count'), 3);
    assert.equal(value(families, 'tigergraph_vertex_count_by_type', { vertex_type: 'Person' }), 3);
    assert.ok(value(families, 'tigergraph_memory_usage', { service_name: '' }) > 10, 'a Node process takes memory');
    assert.ok(value(families, 'tigergraph_diskspace_usage', { path_name: 'Gstore' }) > 0);
    assert.ok(value(families, 'tigergraph_uptime_seconds') > 0);
    const cpu = value(families, 'tigergraph_cpu_usage', { service_name: '' });
    assert.ok(cpu >= 0 && cpu <= 100, `cpu ${cpu}`);

    const upserts = histogram(text, 'tigergraph_query_duration_seconds').get('POST /restpp/graph/{graph}');
    assert.ok(upserts, text);
    assert.equal(upserts.count, 1);
    assert.ok(upserts.sum! > 0);
    const counts = upserts.buckets.map(([, n]) => n);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => a - b),
      'buckets are cumulative',
    );
    assert.deepEqual(upserts.buckets.at(-1), ['+Inf', 1]);
    assert.equal(value(families, 'tigergraph_endpoint_completed', { endpoint: 'POST /restpp/graph/{graph}' }), 1);
    const average = value(families, 'tigergraph_endpoint_latency', {
      endpoint: 'POST /restpp/graph/{graph}',
      statistic: 'average_latency',
    });
    assert.ok(Math.abs(average - upserts.sum! * 1000) < 1e-6);
  });

  it('vertex counts follow the data upserted through the gateway, once the reading is renewed', async () => {
    await advance(3);
    const before = value((await scrape(c, wg, ws.workspace_id!)).families, 'tigergraph_vertex_count');
    await upsert(['dan', 'eve']);
    // Within the window the same reading serves.
    assert.equal(value((await scrape(c, wg, ws.workspace_id!)).families, 'tigergraph_vertex_count'), before);
    await advance(3);
    const { families } = await scrape(c, wg, ws.workspace_id!);
    assert.equal(value(families, 'tigergraph_vertex_count'), before + 2);
    assert.equal(value(families, 'tigergraph_vertex_count_by_type', { vertex_type: 'Person' }), before + 2);
  });

  it('the process figures are not reachable through the gateway', async () => {
    const res = await request(`${server.running.gatewayUrl}/w/${ws.workspace_id}/_acacia/stats`, {
      headers: { authorization: `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}` },
    });
    const body = (await res.body.json()) as { error: boolean; code: string };
    assert.equal(res.statusCode, 404);
    assert.equal(body.error, true);
    assert.equal(body.code, 'REST-1000');
  });
});
