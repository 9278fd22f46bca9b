/**
 * The data plane's graph algorithms beside networkx, on the same seeded graphs in the same run:
 * PageRank, weakly connected components, unweighted single-source shortest paths and triangle
 * count as installed GSQL queries (bench/algorithms/*.gsql), a 2-hop neighbourhood query under
 * load through the gateway, and the process's resident memory per loaded graph.
 * `npm run bench:dataplane -- --algorithms` runs it; docs/benchmarks.md shows a run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resultOf, type AcaciaClient } from '../src/client/index.js';
import { DATA_PLANE_SECRET_HEADER, dataPlaneSecret } from '../src/dataplane/index.js';
import { findRuntime } from '../src/store/repositories/workspace-runtimes.js';
import type { Store } from '../src/store/store.js';
import { generateGraph, upsertBatches, writeEdgeList, type GeneratedGraph } from './graph-generator.js';
import { load } from './load.js';
import { markdownTable } from './table.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;
const GRAPH = 'bench';
const SCHEMA = [
  'CREATE VERTEX Node (PRIMARY_ID id INT)',
  'CREATE UNDIRECTED EDGE Link (FROM Node, TO Node)',
  `CREATE GRAPH ${GRAPH} (Node, Link)`,
].join('\n');
/** The source of the shortest paths, on both sides. */
const SOURCE = 0;
/** The source as a VERTEX parameter in a JSON body, the form REST++ takes there. */
const VERTEX_SOURCE = { id: String(SOURCE), type: 'Node' };
/** The longest one algorithm run may take, here and in networkx, in seconds. */
const RUN_TIMEOUT_S = 600;

type Results = Array<Record<string, unknown>>;
const printed = (key: string) => (r: Results) => r.find((o) => key in o)?.[key];

interface Query {
  /** The .gsql file, relative to bench/algorithms or to the library's algorithms folder. */
  file: string;
  name: string;
  params: object;
  /** What to compare with networkx, from the query's output (the graph's vertex count given). */
  result: (r: Results, vertices: number) => unknown;
  /** The networkx timing doing the same work, when not the algorithm's own (networkx-algorithms.py). */
  networkx?: string;
}

/** Each algorithm as our query runs it, and as the algorithm library's own query does (`--library`). */
const ALGORITHMS: ReadonlyArray<{ name: string; label: string; ours: Query; library: Query }> = [
  {
    name: 'pagerank',
    label: 'PageRank',
    ours: { file: 'pagerank.gsql', name: 'bench_pagerank', params: {}, result: printed('top_score') },
    library: {
      file: 'Centrality/pagerank/global/unweighted/tg_pagerank.gsql',
      name: 'tg_pagerank',
      params: { v_type: 'Node', e_type: 'Link', max_change: 0.000001, maximum_iteration: 100, top_k: 1 },
      // Unnormalised scores, as ours: the top one over the vertex count compares with networkx's.
      result: (r, n) =>
        ((printed('@@top_scores_heap')(r) as Array<{ score: number }> | undefined)?.[0]?.score ?? NaN) / n,
    },
  },
  {
    name: 'wcc',
    label: 'weakly connected components',
    ours: { file: 'wcc.gsql', name: 'bench_wcc', params: {}, result: printed('components') },
    library: {
      file: 'Community/connected_components/weakly_connected_components/standard/tg_wcc.gsql',
      name: 'tg_wcc',
      params: { v_type_set: ['Node'], e_type_set: ['Link'], print_limit: 1 },
      result: (r) => Object.keys((printed('sizes')(r) as object | undefined) ?? {}).length,
    },
  },
  {
    name: 'sssp',
    label: 'unweighted SSSP',
    ours: { file: 'sssp.gsql', name: 'bench_sssp', params: { source: VERTEX_SOURCE }, result: printed('reached') },
    library: {
      file: 'Path/shortest_path/unweighted/tg_shortest_ss_no_wt.gsql',
      name: 'tg_shortest_ss_no_wt',
      // Printing every vertex's path would time the output, not the search: one is printed.
      params: {
        source: VERTEX_SOURCE,
        v_type_set: ['Node'],
        e_type_set: ['Link'],
        print_limit: 1,
      },
      result: () => undefined,
      // The query builds every vertex's path (`@path_list`), as networkx's single_source_shortest_path does.
      networkx: 'sssp_paths',
    },
  },
  {
    name: 'triangles',
    label: 'triangle count',
    ours: { file: 'triangles.gsql', name: 'bench_triangles', params: {}, result: printed('triangles') },
    library: {
      file: 'Community/triangle_counting/fast/tg_tri_count_fast.gsql',
      name: 'tg_tri_count_fast',
      params: { v_type: 'Node', e_type: 'Link' },
      result: printed('num_triangles'),
    },
  },
];
const TWO_HOP: Query = { file: 'two_hop.gsql', name: 'bench_two_hop', params: {}, result: () => undefined };

/** A data-plane process to load one graph into, and the gateway's way to the same process. */
export interface AlgorithmTarget {
  url: string;
  headers: Record<string, string>;
  pid: number;
  gatewayUrl: string;
  gatewayHeaders: Record<string, string>;
}

/** The workspaces' processes, directly and through the gateway with a database user of each. */
export async function workspaceTargets(
  client: AcaciaClient,
  db: Store,
  ws: { workgroupId: string; ids: string[]; dataDir: string; gatewayPort: number },
): Promise<AlgorithmTarget[]> {
  const targets: AlgorithmTarget[] = [];
  for (const id of ws.ids) {
    const user = { username: 'algorithms', password: 'Graph-Secret-42' };
    resultOf(await client.dbUsers.create(ws.workgroupId, id, user));
    const runtime = (await findRuntime(db.db, id))!;
    targets.push({
      url: `http://${runtime.host}:${runtime.port}`,
      headers: { [DATA_PLANE_SECRET_HEADER]: dataPlaneSecret(ws.dataDir, id) },
      pid: runtime.pid,
      gatewayUrl: `http://127.0.0.1:${ws.gatewayPort}/w/${id}`,
      gatewayHeaders: { authorization: `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}` },
    });
  }
  return targets;
}

export interface AlgorithmBenchOptions {
  /** One graph per target, in order. */
  sizes: Array<{ vertices: number; edges: number }>;
  targets: AlgorithmTarget[];
  /** Timed runs of each algorithm, on each side (the median is shown). */
  runs: number;
  seed: number;
  /** Edges per upsert request while loading. */
  batch: number;
  /** The 2-hop load: seconds after a 1 s warm-up, and connections. */
  duration: number;
  connections: number;
  progress: (text: string) => void;
  /** A checkout of the algorithm library: time its own queries, unchanged, instead of ours. */
  library?: string;
}

interface Side {
  ms: number[];
  result: unknown;
  failure?: string;
}

function rssOf(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Number(/(\d+)/.exec(line)![1]) * 1024 : 0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
const fmtMs = (n: number) => (Number.isNaN(n) ? '–' : n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(1));
const shown = (v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? v.toPrecision(6) : String(v ?? '–'));
const mib = (bytes: number) => (bytes / MiB).toFixed(1);
const firstLine = (text: string) =>
  text
    .trim()
    .split('\n')
    .find((l) => /Fail|Error|not supported|error/i.test(l)) ?? text;

async function post(url: string, headers: Record<string, string>, body: string, timeoutS = RUN_TIMEOUT_S) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'GSQL-TIMEOUT': String(timeoutS * 1000) },
    body,
    signal: AbortSignal.timeout(timeoutS * 1000),
  });
  return { status: res.status, text: await res.text() };
}

/** Schema, then every vertex (so isolated ones exist, as in networkx), then the edges in batches. */
async function loadGraph(t: AlgorithmTarget, g: GeneratedGraph, batch: number): Promise<number> {
  const defined = await post(`${t.url}/gsql/v1/statements`, t.headers, SCHEMA);
  if (/Semantic Check Fails|Syntax Error/.test(defined.text)) throw new Error(`schema refused: ${defined.text}`);
  const started = performance.now();
  const upsert = async (body: string) => {
    const r = await post(`${t.url}/restpp/graph/${GRAPH}`, t.headers, body);
    if (r.status !== 200 || JSON.parse(r.text).error) throw new Error(`upsert refused: ${r.text.slice(0, 300)}`);
  };
  for (let i = 0; i < g.vertices; i += batch) {
    const ids = Array.from({ length: Math.min(batch, g.vertices - i) }, (_, k) => [String(i + k), {}]);
    await upsert(JSON.stringify({ vertices: { Node: Object.fromEntries(ids) } }));
  }
  for (const body of upsertBatches(g, batch)) await upsert(body);
  return (performance.now() - started) / 1000;
}

/** Installs one query file; the refusal's telling line when the process does not take it. */
async function install(t: AlgorithmTarget, q: Query, folder: string): Promise<string | undefined> {
  const text = fs.readFileSync(path.join(folder, q.file), 'utf8');
  const r = await post(
    `${t.url}/gsql/v1/statements`,
    t.headers,
    `USE GRAPH ${GRAPH}\n${text}\nINSTALL QUERY ${q.name}`,
  );
  const refused = r.status !== 200 || /Semantic Check Fails|Syntax Error|RETURN__CODE__,2|not supported/i.test(r.text);
  return refused ? `${r.status}: ${firstLine(r.text).slice(0, 90)}` : undefined;
}

async function runQuery(t: AlgorithmTarget, q: Query, vertices: number, runs: number): Promise<Side> {
  const side: Side = { ms: [], result: undefined };
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const r = await post(`${t.url}/restpp/query/${GRAPH}/${q.name}`, t.headers, JSON.stringify(q.params));
    const elapsed = performance.now() - started;
    const answer = JSON.parse(r.text) as {
      error?: boolean;
      message?: string;
      results?: Array<Record<string, unknown>>;
    };
    if (r.status !== 200 || answer.error) return { ...side, failure: `${r.status}: ${answer.message ?? r.text}` };
    side.ms.push(elapsed);
    side.result = q.result(answer.results ?? [], vertices);
  }
  return side;
}

/** networkx on the edge list, in a child process bounded by the run timeout. */
async function networkx(edgeList: string, vertices: number, runs: number): Promise<Record<string, Side>> {
  const child = spawn(
    '/usr/bin/python3',
    [path.join(here, 'networkx-algorithms.py'), edgeList, String(vertices), String(runs), String(SOURCE)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_S * 4 * runs * 1000);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`networkx exited with ${code}`);
  const parsed = JSON.parse(stdout) as { algorithms: Record<string, { seconds: number[]; result: unknown }> };
  return Object.fromEntries(
    Object.entries(parsed.algorithms).map(([k, v]) => [k, { ms: v.seconds.map((s) => s * 1000), result: v.result }]),
  );
}

/** Runs every size and returns the tables as Markdown. */
export async function algorithmBench(opts: AlgorithmBenchOptions): Promise<string> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-algo-bench-'));
  const folder = opts.library ? path.join(opts.library, 'algorithms') : path.join(here, 'algorithms');
  const graphRows: string[][] = [];
  const algoRows: string[][] = [];
  const hopRows: string[][] = [];
  try {
    for (const [i, size] of opts.sizes.entries()) {
      const t = opts.targets[i]!;
      const label = `${size.vertices.toLocaleString('en')} V / ${size.edges.toLocaleString('en')} E`;
      opts.progress(`${label}: generating (seed ${opts.seed + i})`);
      const g = generateGraph(size.vertices, size.edges, opts.seed + i);
      const edgeList = path.join(work, `edges-${i}.txt`);
      writeEdgeList(g, edgeList);

      const rssBefore = rssOf(t.pid);
      opts.progress(`${label}: loading through REST++ upserts of ${opts.batch} edges`);
      const seconds = await loadGraph(t, g, opts.batch);
      const rssLoaded = rssOf(t.pid);

      opts.progress(`${label}: networkx, ${opts.runs} run(s) of each`);
      const nx = await networkx(edgeList, size.vertices, opts.runs);
      for (const a of ALGORITHMS) {
        opts.progress(`${label}: ${a.label}`);
        const q = opts.library ? a.library : a.ours;
        const refused = await install(t, q, folder);
        const ours = refused
          ? { ms: [], result: undefined, failure: `not installed (${refused})` }
          : await runQuery(t, q, size.vertices, opts.runs);
        const theirs = nx[q.networkx ?? a.name]!;
        const speedup = ours.ms.length ? `${(median(theirs.ms) / median(ours.ms)).toFixed(2)}×` : '–';
        algoRows.push([
          q.networkx ? `${a.label}, with paths` : a.label,
          label,
          ours.failure ?? fmtMs(median(ours.ms)),
          fmtMs(median(theirs.ms)),
          speedup,
          `${shown(ours.result)} / ${shown(theirs.result)}`,
        ]);
      }

      const refused = await install(t, TWO_HOP, path.join(here, 'algorithms'));
      if (refused) {
        hopRows.push([label, `not installed (${refused})`, '–', '–']);
      } else {
        opts.progress(`${label}: 2-hop neighbourhood under load through the gateway`);
        const base = new URL(t.gatewayUrl).pathname.replace(/\/$/, '');
        const r = await load({
          url: t.gatewayUrl,
          headers: t.gatewayHeaders,
          paths: () =>
            `${base}/restpp/query/${GRAPH}/${TWO_HOP.name}?seed=${Math.floor(Math.random() * size.vertices)}`,
          connections: opts.connections,
          duration: opts.duration,
          warmup: 1,
        });
        const failed = r.failures > 0 ? ` (${r.failures} failed)` : '';
        hopRows.push([label, `${Math.round(r.rps).toLocaleString('en')}${failed}`, String(r.p50), String(r.p99)]);
      }
      graphRows.push([
        label,
        `${seconds.toFixed(1)} s (${Math.round(size.edges / seconds).toLocaleString('en')} edges/s)`,
        mib(rssBefore),
        mib(rssLoaded),
        mib(rssOf(t.pid)),
      ]);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return [
    markdownTable(
      ['graph', 'load (REST++ upserts)', 'RSS MiB before', 'RSS MiB loaded', 'RSS MiB after the queries'],
      graphRows,
    ),
    '',
    markdownTable(
      ['algorithm', 'graph', 'data plane ms', 'networkx ms', 'networkx / data plane', 'result: data plane / networkx'],
      algoRows,
    ),
    '',
    markdownTable(['2-hop neighbourhood through the gateway', 'req/s', 'p50 ms', 'p99 ms'], hopRows),
  ].join('\n');
}
