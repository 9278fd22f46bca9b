import autocannon from 'autocannon';
import { spentDuring } from './process-stats.js';

/** What one load run measured. */
export interface LoadResult {
  requests: number;
  /** Completed requests per second over the whole run. */
  rps: number;
  p50: number;
  p99: number;
  /** Responses other than 2xx, plus connection errors and timeouts: a run with any is suspect. */
  failures: number;
  /** Server CPU (user + system) per request, microseconds, when its pid was given. */
  cpuPerRequestUs?: number;
  /** Store statements per request, when the server's /metrics counts them. */
  statementsPerRequest?: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A fixed body, or one made per request (e.g. a unique CIDR). */
  body?: string | (() => string);
  /** Seconds; ignored when `amount` is given. */
  duration?: number;
  /** Stop after this many requests instead of after `duration`. */
  amount?: number;
  /** Each request's path, when they differ (e.g. spread over workgroups). */
  paths?: () => string;
  connections: number;
  /** Seconds of the same load run first and not counted, so the JIT and caches are warm. */
  warmup?: number;
  /** The server's process, whose CPU time the timed run is charged. */
  pid?: number;
  /** The server's base URL, whose /metrics count statements. */
  metricsUrl?: string;
}

/** One autocannon run against `url` on loopback (after the warm-up, when asked for). */
export async function load(opts: LoadOptions): Promise<LoadResult> {
  if (opts.warmup) await run({ ...opts, amount: undefined, duration: opts.warmup });
  return run(opts);
}

/** The timed run, with the server's CPU and statements per request where it can tell. */
async function run(opts: LoadOptions): Promise<LoadResult> {
  const { result, cpu, statements } = await spentDuring({ pid: opts.pid, metricsUrl: opts.metricsUrl }, () =>
    autocannonRun(opts),
  );
  const perRequest = (total: number) => total / Math.max(result.requests + result.failures, 1);
  if (cpu !== undefined) result.cpuPerRequestUs = perRequest(cpu) * 1e6;
  if (statements !== undefined) result.statementsPerRequest = perRequest(statements);
  return result;
}

async function autocannonRun(opts: LoadOptions): Promise<LoadResult> {
  const makeBody = opts.body;
  const paths = opts.paths;
  const perRequest = typeof makeBody === 'function' || paths !== undefined;
  const started = performance.now();
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    headers: { ...(opts.headers ?? {}), ...(makeBody !== undefined ? { 'content-type': 'application/json' } : {}) },
    connections: opts.connections,
    pipelining: 1,
    timeout: 60,
    ...(opts.amount !== undefined ? { amount: opts.amount } : { duration: opts.duration ?? 5 }),
    ...(makeBody !== undefined && typeof makeBody !== 'function' ? { body: makeBody } : {}),
    ...(perRequest
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => ({
                ...req,
                ...(paths ? { path: paths() } : {}),
                ...(typeof makeBody === 'function' ? { body: makeBody() } : {}),
              }),
            },
          ],
        }
      : {}),
  });
  // autocannon counts a run's duration in whole ticks of its one-second timer: a run to a
  // count is timed here instead.
  const seconds = opts.amount !== undefined ? (performance.now() - started) / 1000 : result.duration;
  const ok = result['2xx'];
  return {
    requests: ok,
    rps: ok / Math.max(seconds, 1e-3),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * `runs` runs in a row (after one warm-up); the one with the median throughput. Figures
 * compared across sizes on a shared machine are steadier this way than from one run.
 */
export async function loadMedian(opts: LoadOptions, runs: number): Promise<LoadResult> {
  if (opts.warmup) await run({ ...opts, amount: undefined, duration: opts.warmup });
  const results: LoadResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await run(opts));
  return results.sort((a, b) => a.rps - b.rps)[Math.floor(runs / 2)]!;
}
