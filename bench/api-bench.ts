import { API_PREFIX, AcaciaClient, resultOf } from '../src/client/index.js';
import { newKeyText, publicProvider } from '../test/helpers/server.js';
import type { Baseline } from './baseline.js';
import { load, type LoadResult } from './load.js';
import { writeQuotaFreeConfig } from './quota-free-config.js';
import { startServer, type ServerProcess } from './server-process.js';
import { freshStore, type StoreKind } from './store-location.js';
import type { StoreLocation } from '../test/helpers/store-location.js';
import { assertSameBytes, startMinimal } from './minimal.js';
import type { ForkedServer } from './forked-server.js';
import { waitAllActive } from './wait.js';

/** One scenario on one store, beside the node:http baseline serving a body of the same size. */
export interface ApiRow {
  scenario: string;
  store: StoreKind;
  /** Size of the scenario's response body in bytes. */
  bytes: number;
  acacia: LoadResult;
  /** Peak RSS of the server process during the scenario, bytes. */
  peakRss: number;
  baseline: LoadResult;
  /** The minimal store-backed server (bench/minimal-server.ts), for the reads it serves. */
  minimal?: LoadResult;
}

export interface ApiBenchOptions {
  duration: number;
  connections: number;
  /** Workspaces the organisation holds at the end of scenario (d). */
  orgWorkspaces: number;
  baseline: Baseline;
  progress: (text: string) => void;
}

/** How a scenario is loaded, beyond the defaults (duration, connections). */
interface Run {
  /** Also load the minimal store-backed server, which answers this path with the same bytes. */
  minimal?: ForkedServer;
  body?: string | (() => string);
  amount?: number;
  connections?: number;
  paths?: () => string;
}

/** Seconds of untimed load before each timed run. */
const WARMUP = 1;
/** Workgroups the workspaces of scenario (d) are spread over. */
const WORKGROUPS_IN_D = 50;
/** The 5,000-workspace list takes most of a second per request: 2 connections. */
const BIG_LIST: Run = { connections: 2 };

/**
 * (a) GET a workgroup embedding 20 workspaces, (b) GET one workspace, (c) POST allow-list
 * entries, (d) POST workspaces until the quota-free organisation holds `orgWorkspaces`, then
 * GET /workgroups; in that order, on one fresh store.
 */
export async function apiBench(kind: StoreKind, opts: ApiBenchOptions): Promise<ApiRow[]> {
  const store = await freshStore(kind);
  let server: ServerProcess | undefined;
  try {
    const start = { apiKey: newKeyText('bench'), configFile: writeQuotaFreeConfig(store.dataDir) };
    server = await startServer(store, start);
    return (await scenarios(kind, server, { store, configFile: start.configFile }, opts)).rows;
  } finally {
    await server?.stop();
    await store.dispose();
  }
}

/** What every scenario works with. */
interface Bench {
  kind: StoreKind;
  server: ServerProcess;
  client: AcaciaClient;
  headers: Record<string, string>;
  opts: ApiBenchOptions;
  rows: ApiRow[];
  newWorkgroup(name: string): Promise<string>;
}

async function scenarios(
  kind: StoreKind,
  server: ServerProcess,
  where: { store: StoreLocation; configFile: string },
  opts: ApiBenchOptions,
): Promise<Bench> {
  const client = new AcaciaClient({ baseUrl: server.url, apiKey: server.apiKey });
  const provider = await publicProvider(client);
  const b: Bench = {
    kind,
    server,
    client,
    headers: { 'x-api-key': server.apiKey },
    opts,
    rows: [],
    newWorkgroup: async (name) =>
      resultOf(await client.workgroups.create({ name, cloud_provider_id: provider })).workgroup_id!,
  };
  // For reference: the cheapest route of the app (no key, no store), i.e. Fastify and the app's hooks.
  await measure(
    b,
    '(ref) GET /healthz: no key, no store',
    'GET',
    '/healthz',
    await fetchBytes(server.url, 'GET', '/healthz', {}),
    {},
  );
  const minimal = await startMinimal(where.store, where.configFile);
  let held: number;
  try {
    held = await readScenarios(b, minimal);
  } finally {
    await minimal.stop();
  }
  await allowListScenario(b);
  await organisationScenarios(b, held);
  return b;
}

/**
 * Acacia and the baseline are loaded in turn this many times per scenario and the pair with
 * the median ratio is reported: this machine's speed drifts by tens of percent within
 * minutes, and a pair run back to back shares the drift. A run to a count (it changes the
 * store) runs once.
 */
const PAIRS = 3;

/** Runs the load on Acacia and then on the baseline answering with the same bytes, PAIRS times in turn. */
async function measure(
  b: Bench,
  scenario: string,
  method: 'GET' | 'POST',
  path: string,
  sample: Buffer,
  run: Run,
): Promise<void> {
  const { opts, server } = b;
  opts.progress(`${b.kind}: ${scenario}`);
  const basePath = `/${b.kind}/${b.rows.length}`;
  await opts.baseline.serve(basePath, sample);
  const connections = run.connections ?? opts.connections;
  const body = run.body !== undefined ? { body: run.body } : {};
  server.resetPeakRss();
  const pairs: Array<{ acacia: LoadResult; baseline: LoadResult; minimal?: LoadResult }> = [];
  const timed = run.amount !== undefined ? { amount: run.amount } : { duration: opts.duration, warmup: WARMUP };
  for (let i = 0; i < (run.amount !== undefined ? 1 : PAIRS); i++) {
    const acacia = await load({
      url: `${server.url}${path}`,
      method,
      headers: b.headers,
      connections,
      pid: server.pid,
      metricsUrl: server.url,
      // A warm-up would add requests to a run that must stop at an exact count.
      ...timed,
      ...(run.paths ? { paths: run.paths } : {}),
      ...body,
    });
    const minimal = run.minimal
      ? await load({
          url: `${run.minimal.url}${path}`,
          headers: b.headers,
          connections,
          pid: run.minimal.pid,
          ...timed,
        })
      : undefined;
    const baseline = await load({
      url: `${opts.baseline.url}${basePath}`,
      method,
      ...body,
      duration: opts.duration,
      connections,
      warmup: WARMUP,
      pid: opts.baseline.pid,
    });
    pairs.push({ acacia, baseline, ...(minimal ? { minimal } : {}) });
  }
  const peakRss = server.peakRss();
  // The run's reference for the median: the minimal server where there is one.
  const reference = (p: (typeof pairs)[number]) => p.acacia.rps / (p.minimal ?? p.baseline).rps;
  const { acacia, baseline, minimal } = pairs.sort((x, y) => reference(x) - reference(y))[
    Math.floor(pairs.length / 2)
  ]!;
  const label = connections === opts.connections ? scenario : `${scenario} (${connections} connections)`;
  b.rows.push({
    scenario: label,
    store: b.kind,
    bytes: sample.length,
    acacia,
    peakRss,
    baseline,
    ...(minimal ? { minimal } : {}),
  });
}

/**
 * (a) and (b): a workgroup embedding 20 workspaces, each with its own database. Returns how many workspaces it made.
 */
async function readScenarios(b: Bench, minimal: ForkedServer): Promise<number> {
  const wg = await b.newWorkgroup('embeds-20');
  const spaces: string[] = [];
  for (let i = 0; i < 20; i++)
    spaces.push(resultOf(await b.client.workspaces.create(wg, { name: `ws-${i}` })).workspace_id!);
  await waitAllActive(b.client, [wg]);
  const wgPath = `${API_PREFIX}/workgroups/${wg}`;
  const wsPath = `${wgPath}/workspaces/${spaces[7]}`;
  for (const [scenario, path] of [
    ['(a) GET /workgroups/{wg}, 20 workspaces', wgPath],
    ['(b) GET one workspace', wsPath],
  ] as const) {
    const sample = await assertSameBytes(b.server.url, minimal.url, path, b.headers);
    await measure(b, scenario, 'GET', path, sample, { minimal });
  }
  return spaces.length;
}

/** Allow-list sizes at which (c) is measured: its cost must not grow with the list. */
const LIST_SIZES = [100, 20_000];
/** Entries each (c) run adds, to a count, so its CPU per request is comparable across sizes. */
const LIST_RUN = 2_000;

/** (c): every entry needs a range of its own; a duplicate would be a 409. */
async function allowListScenario(b: Bench): Promise<void> {
  const path = `${API_PREFIX}/workgroups/${await b.newWorkgroup('allow-list')}/allow_list`;
  let n = 0;
  const entry = () => {
    const i = ++n;
    return JSON.stringify({ cidr: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32`, note: 'bench' });
  };
  const sample = await fetchBytes(
    b.server.url,
    'POST',
    path,
    b.headers,
    JSON.stringify({ cidr: '192.0.2.1/32', note: 'bench' }),
  );
  for (const size of LIST_SIZES) {
    // Untimed: the list grows to the size first.
    const fill = size - (n + 1);
    const url = `${b.server.url}${path}`;
    if (fill > 0) await load({ url, method: 'POST', headers: b.headers, body: entry, amount: fill, connections: 4 });
    const label = `(c) POST allow-list entry, ${size.toLocaleString('en')} entries`;
    await measure(b, label, 'POST', path, sample, { body: entry, amount: LIST_RUN });
  }
}

/**
 * (d): workspaces spread over workgroups, as an organisation of that size would have them, then the list of
 * everything.
 */
async function organisationScenarios(b: Bench, held: number): Promise<void> {
  const total = b.opts.orgWorkspaces;
  const groups: string[] = [];
  for (let i = 0; i < WORKGROUPS_IN_D; i++) groups.push(await b.newWorkgroup(`org-scale-${i}`));
  let g = 0;
  const nextGroup = () => `${API_PREFIX}/workgroups/${groups[g++ % groups.length]}/workspaces`;
  const wsSample = await fetchBytes(b.server.url, 'POST', nextGroup(), b.headers, '{}');
  await measure(b, `(d) POST workspaces up to ${total.toLocaleString('en')}`, 'POST', '', wsSample, {
    body: '{}',
    amount: total - held - 1,
    paths: nextGroup,
  });
  await waitAllActive(b.client, groups);
  const listPath = `${API_PREFIX}/workgroups`;
  const listSample = await fetchBytes(b.server.url, 'GET', listPath, b.headers);
  const count = (JSON.parse(listSample.toString()) as { Result: Array<{ workspaces: unknown[] }> }).Result.reduce(
    (sum, w) => sum + w.workspaces.length,
    0,
  );
  if (count !== total) throw new Error(`the organisation holds ${count} workspaces, expected ${total}`);
  await measure(
    b,
    `(d) GET /workgroups, ${total.toLocaleString('en')} workspaces`,
    'GET',
    listPath,
    listSample,
    BIG_LIST,
  );
}

/** The exact bytes of one response, so the baseline answers with as many. */
async function fetchBytes(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Buffer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body } : {}),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200)
    throw new Error(`${method} ${path} answered ${res.status}: ${bytes.toString().slice(0, 500)}`);
  return bytes;
}
