import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { DATA_PLANE_SECRET_HEADER, dataPlaneSecret, socketFolder, socketPath } from '../src/dataplane/index.js';
import { findRuntime, type WorkspaceRuntime } from '../src/store/repositories/workspace-runtimes.js';
import { openStore } from '../src/store/store.js';
import { newKeyText } from '../test/helpers/server.js';
import { algorithmBench, workspaceTargets } from './dataplane-algorithms.js';
import { load, type LoadResult } from './load.js';
import { writeQuotaFreeConfig } from './quota-free-config.js';
import type { BareProxyTarget } from './bare-proxy.js';
import { forkServer } from './forked-server.js';
import { freePort, startServer } from './server-process.js';
import { freshStore } from './store-location.js';
import { quantile } from './stats.js';
import { markdownTable } from './table.js';
import { activeWorkgroup, waitUntil } from './wait.js';

const usage = `npm run bench:dataplane [-- options]

  --duration <s>      seconds per load run (default 5, after a 1 s warm-up)
  --connections <n>   concurrent connections (default 10)
  --batch <n>         vertices per upsert request, each with one edge (default 100)
  --workspaces <n>    Active workspaces whose resident memory is measured (default 5)
  --algorithms        also time PageRank, WCC, SSSP, triangles beside networkx, and a 2-hop query
  --sizes <list>      graphs for --algorithms, vertices:edges,… (default 10000:1000000,100000:1000000)
  --runs <n>          timed runs of each algorithm (default 3)
  --library <dir>     with --algorithms: the algorithm library checkout whose own queries to time
  --load-edges <n>    edges of the CSV loaded by a loading job through POST /restpp/ddl (default 1000000)
  --only-loading      run the loading-job row only (no upsert or read runs); with --workspaces 1 it is quick
  --only-reads        run the read scenario only (no upserts, no loading job); with --workspaces 1 it is quick
  --rounds <n>        rounds of each load scenario, alternating direct, gateway and bare proxy; medians (default 1)
`;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    batch: { type: 'string', default: '100' },
    workspaces: { type: 'string', default: '5' },
    algorithms: { type: 'boolean', default: false },
    sizes: { type: 'string', default: '10000:1000000,100000:1000000' },
    runs: { type: 'string', default: '3' },
    library: { type: 'string' },
    'load-edges': { type: 'string', default: '1000000' },
    'only-loading': { type: 'boolean', default: false },
    'only-reads': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const duration = Number(values.duration);
const connections = Number(values.connections);
const batch = Number(values.batch);
const workspaces = Number(values.workspaces);
const loadEdges = Number(values['load-edges']);
const onlyLoading = values['only-loading'];
const onlyReads = values['only-reads'];
const rounds = Number(values.rounds);
/** Ids are drawn from this many, so the graph stops growing and upserts become updates. */
const ID_SPACE = 20_000;
const MiB = 1024 * 1024;
const out = (text: string) => process.stdout.write(`${text}\n`);
const progress = (text: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}`);

const schema = [
  'CREATE VERTEX Person (PRIMARY_ID id STRING, age INT, name STRING) WITH PRIMARY_ID_AS_ATTRIBUTE="true"',
  'CREATE DIRECTED EDGE Knows (FROM Person, TO Person, since INT)',
  'CREATE GRAPH social (Person, Knows)',
].join('\n');

/** A run's CPU per request of the process it was sent to, in milliseconds. */
const cpuMs = (r: Pick<LoadResult, 'cpuPerRequestUs'>) =>
  r.cpuPerRequestUs === undefined ? '–' : (r.cpuPerRequestUs / 1000).toFixed(2);

const randomId = () => `p${Math.floor(Math.random() * ID_SPACE)}`;

/** `batch` vertices, each with one edge to another random vertex, as REST++ takes them. */
function upsertBody(): string {
  const vertices: Record<string, unknown> = {};
  const edges: Record<string, unknown> = {};
  for (let i = 0; i < batch; i++) {
    const id = randomId();
    vertices[id] = { age: { value: 20 + (i % 50) }, name: { value: `person ${id}` } };
    edges[id] = { Knows: { Person: { [randomId()]: { since: { value: 2000 + (i % 25) } } } } };
  }
  return JSON.stringify({ vertices: { Person: vertices }, edges: { Person: edges } });
}

/** CPU seconds (user and system) a process has used, from /proc. */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Number(/(\d+)/.exec(line)![1]) * 1024 : 0;
}

/** Lines per `POST /ddl` request: at most 19 bytes a line, inside the 1 MiB body limit of the process. */
const LOAD_LINES_PER_REQUEST = 50_000;

/**
 * Defines a loading job, then loads a generated CSV of `loadEdges` edges (among 100,000
 * vertex ids, each line one edge) in requests sent one after the other to the process
 * directly, as pyTigerGraph's runLoadingJobWithData sends a file. Only the requests are timed,
 * in wall-clock time and in CPU time of the data-plane process (`pid`), which a machine shared
 * with other work slows less.
 */
async function loadThroughDdl(
  gateway: string,
  basic: string,
  direct: string,
  secret: Record<string, string>,
  pid: number,
): Promise<{ seconds: number; cpuSeconds: number; requests: number; rejected: number }> {
  const job = await fetch(`${gateway}/gsql/v1/statements`, {
    method: 'POST',
    headers: { authorization: basic },
    body:
      'CREATE LOADING JOB load_knows FOR GRAPH social { DEFINE FILENAME f; ' +
      'LOAD f TO EDGE Knows VALUES ($0, $1, $2); }',
  });
  if (!job.ok || !(await job.text()).includes('Successfully created')) throw new Error('the loading job was refused');
  let seconds = 0;
  let cpuSeconds = 0;
  let requests = 0;
  let rejected = 0;
  for (let done = 0; done < loadEdges; done += LOAD_LINES_PER_REQUEST) {
    const lines: string[] = [];
    for (let i = done; i < Math.min(loadEdges, done + LOAD_LINES_PER_REQUEST); i++)
      lines.push(`e${Math.floor(Math.random() * 100_000)},e${Math.floor(Math.random() * 100_000)},${2000 + (i % 25)}`);
    const body = lines.join('\n');
    const t0 = performance.now();
    const cpu0 = cpuSecondsOf(pid);
    const res = await fetch(`${direct}/restpp/ddl/social?tag=load_knows&filename=f&sep=,`, {
      method: 'POST',
      headers: secret,
      body,
      signal: AbortSignal.timeout(600_000),
    });
    const reply = (await res.json()) as { error: boolean; results: { statistics: { rejectLine: number } }[] };
    seconds += (performance.now() - t0) / 1000;
    cpuSeconds += cpuSecondsOf(pid) - cpu0;
    if (!res.ok || reply.error) throw new Error(`POST /restpp/ddl failed: ${JSON.stringify(reply).slice(0, 300)}`);
    rejected += reply.results[0]!.statistics.rejectLine;
    requests++;
  }
  return { seconds, cpuSeconds, requests, rejected };
}

const store = await freshStore('sqlite');
const apiKey = newKeyText('bench');
const gatewayPort = await freePort();
progress('starting acacia serve with ACACIA_DRIVER=local');
const server = await startServer(store, {
  apiKey,
  configFile: writeQuotaFreeConfig(store.dataDir),
  env: { ACACIA_DRIVER: 'local', ACACIA_GATEWAY_PORT: String(gatewayPort), ACACIA_HOST: '127.0.0.1' },
});
const db = await openStore({ dataDir: store.dataDir });
try {
  const client = new AcaciaClient({ baseUrl: server.url, apiKey });
  const { workgroupId: wg, workspaceIds: ids } = await activeWorkgroup(client, 'bench', workspaces);
  const id = ids[0]!;
  const user = { username: 'bench', password: 'Graph-Secret-42' };
  resultOf(await client.dbUsers.create(wg, id, user));

  const gateway = `http://127.0.0.1:${gatewayPort}/w/${id}`;
  const basic = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
  const runtime = (await findRuntime(db.db, id)) as WorkspaceRuntime;
  const direct = `http://${runtime.host}:${runtime.port}`;
  const secret = { [DATA_PLANE_SECRET_HEADER]: dataPlaneSecret(store.dataDir, id) };
  const defined = await fetch(`${gateway}/gsql/v1/statements`, {
    method: 'POST',
    headers: { authorization: basic },
    body: schema,
  });
  if (!defined.ok) throw new Error(`the schema was refused: ${await defined.text()}`);
  // The reads find what they ask for: every id exists before they run.
  for (let i = 0; i < (onlyLoading ? 0 : ID_SPACE); i += 1000) {
    const vertices = Object.fromEntries(
      Array.from({ length: 1000 }, (_, k) => [`p${i + k}`, { age: { value: 30 }, name: { value: `person ${i + k}` } }]),
    );
    await fetch(`${direct}/restpp/graph/social`, {
      method: 'POST',
      headers: secret,
      body: JSON.stringify({ vertices: { Person: vertices } }),
    });
  }

  const scenarios = [
    {
      name: `upsert (${batch} vertices + ${batch} edges per request)`,
      method: 'POST' as const,
      path: () => '/restpp/graph/social',
      body: upsertBody,
    },
    {
      name: 'read one vertex by id',
      method: 'GET' as const,
      path: () => `/restpp/graph/social/vertices/Person/${randomId()}`,
    },
  ];
  const rows: string[][] = [];
  // The ceiling for a proxy in this runtime, measured in front of the same process (bench/bare-proxy.ts).
  const bare = await forkServer('bare-proxy.ts');
  // The same hop the gateway takes: the process's Unix socket, where it has one.
  const socket = socketPath(socketFolder(store.dataDir), runtime.port!);
  const bareTarget: BareProxyTarget = { origin: direct, headers: secret, ...(socket ? { socketPath: socket } : {}) };
  await new Promise((resolve) => {
    bare.child.once('message', resolve);
    bare.child.send(bareTarget);
  });
  const scenariosRun = onlyLoading ? [] : onlyReads ? scenarios.filter((s) => s.method === 'GET') : scenarios;
  for (const s of scenariosRun) {
    // Each run is charged the CPU of the process it is sent to: the gateway's (`acacia serve`) or the data plane's.
    const run = (base: string, headers: Record<string, string>, pid: number): Promise<LoadResult> =>
      load({
        url: base,
        method: s.method,
        headers,
        ...(s.body ? { body: s.body } : {}),
        paths: () => new URL(base).pathname.replace(/\/$/, '') + s.path(),
        connections,
        duration,
        warmup: 1,
        pid,
      });
    // Rounds alternate the three, so a slower spell of the shared machine touches each alike;
    // each figure is the median over the rounds, the ratios of runs in the same round.
    const d: LoadResult[] = [];
    const g: LoadResult[] = [];
    const b: LoadResult[] = [];
    for (let round = 1; round <= rounds; round++) {
      const of = rounds > 1 ? ` (round ${round} of ${rounds})` : '';
      progress(`${s.name}: directly${of}`);
      d.push(await run(direct, secret, runtime.pid));
      progress(`${s.name}: through the gateway${of}`);
      g.push(await run(gateway, { authorization: basic }, server.pid));
      progress(`${s.name}: through a bare proxy${of}`);
      b.push(await run(bare.url, {}, bare.pid));
    }
    const median = (values: number[]) => quantile(values, 0.5);
    const ratio = (over: LoadResult[], to = d) => `${median(over.map((r, i) => r.rps / to[i]!.rps)).toFixed(2)}×`;
    const failed = (runs: LoadResult[]) => runs.reduce((n, r) => n + r.failures, 0);
    const rate = (runs: LoadResult[]) =>
      `${Math.round(median(runs.map((r) => r.rps))).toLocaleString('en')}` +
      (failed(runs) > 0 ? ` (${failed(runs)} failed)` : '');
    const at = (runs: LoadResult[], pick: (r: LoadResult) => number | undefined) => {
      const values = runs.map(pick).filter((v): v is number => v !== undefined);
      return values.length ? median(values) : undefined;
    };
    const cpu = (runs: LoadResult[]) => cpuMs({ cpuPerRequestUs: at(runs, (r) => r.cpuPerRequestUs) });
    rows.push([
      s.name,
      rate(d),
      rate(g),
      ratio(g),
      rate(b),
      ratio(b),
      ratio(g, b),
      `${at(d, (r) => r.p50)} / ${at(g, (r) => r.p50)}`,
      `${at(d, (r) => r.p99)} / ${at(g, (r) => r.p99)}`,
      `${cpu(g)} / ${cpu(b)} / ${cpu(d)}`,
    ]);
  }
  await bare.stop();

  if (!onlyReads) {
    progress(`loading job: ${loadEdges.toLocaleString('en')} edges through POST /restpp/ddl, directly`);
    const loading = await loadThroughDdl(gateway, basic, direct, secret, runtime.pid);
    const failedLoad = loading.rejected > 0 ? ` (${loading.rejected} lines rejected)` : '';
    rows.push([
      `loading job, ${loadEdges.toLocaleString('en')}-edge CSV in ${loading.requests} POST /restpp/ddl`,
      `${Math.round(loadEdges / loading.seconds).toLocaleString('en')} edges/s${failedLoad} ` +
        `(${Math.round(loadEdges / loading.cpuSeconds).toLocaleString('en')} per CPU second of the process)`,
      ...Array<string>(8).fill('–'),
    ]);
  }

  const pids: number[] = [];
  for (const w of ids) pids.push((await findRuntime(db.db, w))!.pid);
  const rss = pids.map(rssOf);
  const idle = rss.slice(1);

  out(`Data plane through the gateway, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`);
  out(
    `machine: ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}`,
  );
  out(
    `load: autocannon, ${connections} connections, ${duration} s per run after 1 s warm-up, ` +
      `${rounds > 1 ? `medians of ${rounds} rounds, ` : ''}loopback; ` +
      `SQLite store; ${ID_SPACE.toLocaleString('en')} Person vertices`,
  );
  out('');
  out(
    markdownTable(
      [
        'scenario',
        'direct req/s',
        'gateway req/s',
        'gateway / direct',
        'bare proxy req/s',
        'bare proxy / direct',
        'gateway / bare proxy',
        'p50 ms direct / gateway',
        'p99 ms direct / gateway',
        'CPU ms per request: gateway / bare proxy / process',
      ],
      rows,
    ),
  );
  out('');
  out(
    markdownTable(
      ['resident memory', 'MiB'],
      [
        [`data-plane process of the loaded workspace`, (rss[0]! / MiB).toFixed(1)],
        [
          `data-plane process of an idle Active workspace (mean of ${idle.length})`,
          idle.length ? (idle.reduce((a, b) => a + b, 0) / idle.length / MiB).toFixed(1) : '–',
        ],
        [`Acacia itself (tsx from the sources)`, (rssOf(server.pid) / MiB).toFixed(1)],
      ],
    ),
  );
  if (values.algorithms) {
    const sizes = values.sizes.split(',').map((s) => s.split(':').map(Number) as [number, number]);
    const algoIds = ids.slice(1, 1 + sizes.length);
    if (algoIds.length < sizes.length) throw new Error(`--algorithms needs --workspaces ${sizes.length + 1} or more`);
    // The triangle count holds about 110 MiB of heap on a 1M-edge graph, more than a query may
    // take of a TG-00 workspace's 128 MiB: the algorithms run on TG-0 workspaces (256 MiB).
    for (const id of algoIds) resultOf(await client.workspaces.update(wg, id, { workspace_type_name: 'TG-0' }));
    await waitUntil(async () => {
      const list = resultOf(await client.workspaces.list(wg));
      return algoIds.every((id) => {
        const w = list.find((x) => x.workspace_id === id);
        return w?.status === 'Active' && w.workspace_type?.typeName === 'TG-0';
      });
    }, 'the algorithm workspaces resized to TG-0');
    const targets = await workspaceTargets(client, db, {
      workgroupId: wg,
      ids: algoIds,
      dataDir: store.dataDir,
      gatewayPort,
    });
    out('');
    out(
      await algorithmBench({
        ...{ sizes: sizes.map(([vertices, edges]) => ({ vertices, edges })), targets, runs: Number(values.runs) },
        ...{ seed: 24, batch: 10_000, duration, connections, progress, library: values.library },
      }),
    );
  }
} finally {
  await db.close();
  await server.stop();
  await store.dispose();
}
