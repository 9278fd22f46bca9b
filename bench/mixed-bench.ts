import path from 'node:path';
import { Pool } from 'undici';
import { API_PREFIX, AcaciaClient, resultOf } from '../src/client/index.js';
import { newKeyText } from '../test/helpers/server.js';
import { writeQuotaFreeConfig } from './quota-free-config.js';
import { startServer, type ServerProcess } from './server-process.js';
import { spentDuring } from './process-stats.js';
import { quantile } from './stats.js';
import { freshStore, type StoreKind } from './store-location.js';
import { activeWorkgroup } from './wait.js';

/** One run of the mixed workload on one server. */
export interface MixedRow {
  store: StoreKind;
  /** Which code and settings: this checkout, or the comparison checkout. */
  server: string;
  rps: number;
  reads: { p50: number; p99: number };
  writes: { p50: number; p99: number };
  /** Server CPU (user + system) per request, microseconds. */
  cpuPerRequestUs: number;
  /** Store statements per request (BEGIN/COMMIT and the engine's included), where /metrics counts them. */
  statementsPerRequest: number | undefined;
  failures: number;
}

export interface MixedOptions {
  duration: number;
  connections: number;
  /**
   * Another checkout whose server runs the same workload in the same run (its dependencies
   * installed); on SQLite also with ACACIA_READ_CACHE_MB=0, for checkouts that had a read cache.
   */
  compareRoot?: string;
  /** Rounds, each running every server once in turn on a fresh store; the median round of each is reported. */
  rounds?: number;
  progress: (text: string) => void;
}

/**
 * A client's mix on one workgroup of 20 workspaces: 90% reads (one workspace, the workgroup,
 * its allow list, in equal parts), 10% writes (a workspace's metadata, a new allow-list
 * entry, in equal parts), each connection sending its next request when the last is
 * answered. Every write invalidates what a read cache holds, as real traffic does. The
 * servers take turns, round after round, so that the machine's drift falls on all of them.
 */
export async function mixedBench(kind: StoreKind, opts: MixedOptions): Promise<MixedRow[]> {
  const servers: Array<{ label: string; root?: string; env: Record<string, string> }> = [
    { label: 'this checkout', env: {} },
    ...(opts.compareRoot
      ? [
          { label: `${path.basename(opts.compareRoot)}`, root: opts.compareRoot, env: {} },
          ...(kind === 'sqlite'
            ? [
                {
                  label: `${path.basename(opts.compareRoot)}, read cache off`,
                  root: opts.compareRoot,
                  env: { ACACIA_READ_CACHE_MB: '0' },
                },
              ]
            : []),
        ]
      : []),
  ];
  const rounds = opts.rounds ?? 3;
  const runsOf = servers.map((): MixedRow[] => []);
  for (let round = 1; round <= rounds; round++) {
    for (const [i, s] of servers.entries()) {
      opts.progress(`${kind}: mixed workload, ${s.label}, round ${round} of ${rounds}`);
      const store = await freshStore(kind);
      let server: ServerProcess | undefined;
      try {
        const apiKey = newKeyText('bench');
        server = await startServer(store, {
          apiKey,
          configFile: writeQuotaFreeConfig(store.dataDir),
          env: s.env,
          ...(s.root ? { root: s.root } : {}),
        });
        runsOf[i]!.push({ store: kind, server: s.label, ...(await runMix(server, opts)) });
      } finally {
        await server?.stop();
        await store.dispose();
      }
    }
  }
  return runsOf.map((runs) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!);
}

async function runMix(server: ServerProcess, opts: MixedOptions): Promise<Omit<MixedRow, 'store' | 'server'>> {
  const client = new AcaciaClient({ baseUrl: server.url, apiKey: server.apiKey });
  const { workgroupId: wg, workspaceIds: spaces } = await activeWorkgroup(client, 'mixed', 20);
  for (let i = 0; i < 100; i++) resultOf(await client.allowList.create(wg, { cidr: `192.0.${i}.0/24` }));

  const wgPath = `${API_PREFIX}/workgroups/${wg}`;
  let entry = 0;
  const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
  const next = (): { write: boolean; method: 'GET' | 'PUT' | 'POST'; path: string; body?: string } => {
    const r = Math.random();
    if (r < 0.3) return { write: false, method: 'GET', path: `${wgPath}/workspaces/${pick(spaces)}` };
    if (r < 0.6) return { write: false, method: 'GET', path: wgPath };
    if (r < 0.9) return { write: false, method: 'GET', path: `${wgPath}/allow_list` };
    if (r < 0.95) {
      const body = JSON.stringify({ auto_stop_minutes: 30 + Math.floor(Math.random() * 600) });
      return { write: true, method: 'PUT', path: `${wgPath}/workspaces/${pick(spaces)}`, body };
    }
    const i = ++entry;
    const body = JSON.stringify({ cidr: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32` });
    return { write: true, method: 'POST', path: `${wgPath}/allow_list`, body };
  };

  const pool = new Pool(server.url, { connections: opts.connections, pipelining: 1 });
  const headers = { 'x-api-key': server.apiKey, 'content-type': 'application/json' };
  const readMs: number[] = [];
  const writeMs: number[] = [];
  let failures = 0;
  const worker = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const req = next();
      const started = performance.now();
      try {
        const res = await pool.request({ method: req.method, path: req.path, headers, body: req.body });
        await res.body.dump();
        const ms = performance.now() - started;
        if (!record) continue;
        if (res.statusCode !== 200) failures++;
        (req.write ? writeMs : readMs).push(ms);
      } catch {
        if (record) failures++;
      }
    }
  };
  const run = async (seconds: number, record: boolean) => {
    const until = performance.now() + seconds * 1000;
    await Promise.all(Array.from({ length: opts.connections }, () => worker(until, record)));
  };
  try {
    await run(1, false);
    const {
      result: seconds,
      cpu,
      statements,
    } = await spentDuring({ pid: server.pid, metricsUrl: server.url }, async () => {
      const started = performance.now();
      await run(opts.duration, true);
      return (performance.now() - started) / 1000;
    });
    const requests = readMs.length + writeMs.length;
    const perRequest = (total: number) => total / Math.max(requests, 1);
    return {
      rps: requests / seconds,
      reads: { p50: quantile(readMs, 0.5), p99: quantile(readMs, 0.99) },
      writes: { p50: quantile(writeMs, 0.5), p99: quantile(writeMs, 0.99) },
      cpuPerRequestUs: perRequest(cpu!) * 1e6,
      statementsPerRequest: statements === undefined ? undefined : perRequest(statements),
      failures,
    };
  } finally {
    await pool.close();
  }
}
