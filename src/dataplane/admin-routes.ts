import fs from 'node:fs';
import path from 'node:path';
import { fail } from './errors.js';
import { route, sendJson, sendResults, type RequestContext, type Router } from './http-server.js';
import { storeStats } from './snapshot.js';

/**
 * The admin endpoints pyTigerGraph's utility calls reach: system metrics (getSystemMetrics on
 * 4.1+), endpoint statistics (getQueryPerformance), service status (getServiceStatus) and
 * `rebuildnow` (rebuildGraph). One process is the whole server here, so the figures are the
 * process's own: one host, `m1`, as a single-node TigerGraph names itself.
 */

const HOST_ID = 'm1';
const MB = 1024 * 1024;

/** The services a TigerGraph 4.x node runs; this process stands in for every one of them. */
const SERVICES = [
  'ADMIN',
  'CTRL',
  'DICT',
  'ETCD',
  'EXE',
  'GPE',
  'GSE',
  'GSQL',
  'GUI',
  'IFM',
  'KAFKA',
  'NGINX',
  'RESTPP',
];

/** CPU is the share of one core since the previous reading (since start, at the first). */
let lastCpu = { at: performance.now() - process.uptime() * 1000, used: 0 };
function cpuPercent(): number {
  const usage = process.cpuUsage();
  const now = { at: performance.now(), used: (usage.user + usage.system) / 1000 };
  const percent = now.at > lastCpu.at ? (100 * (now.used - lastCpu.used)) / (now.at - lastCpu.at) : 0;
  lastCpu = now;
  return Math.max(0, percent);
}

const nowNs = (): string => `${BigInt(Date.now()) * 1_000_000n}`;

/** `POST /informant/metrics/get/{what}`: the 4.1+ form of getSystemMetrics(). */
function systemMetrics(ctx: RequestContext): void {
  ctx.req.resume();
  const what = ctx.params.what!;
  const at = nowNs();
  switch (what) {
    case 'cpu-memory':
      return sendJson(ctx.res, 200, {
        CPUMemoryMetrics: [
          {
            HostID: HOST_ID,
            TimestampNS: at,
            CPU: { CPUUsage: cpuPercent() },
            Memory: { MemoryUsageMB: Math.round(process.memoryUsage.rss() / MB) },
          },
        ],
      });
    case 'diskspace': {
      const dir = path.dirname(ctx.store.db.name);
      const disk = fs.statfsSync(dir);
      return sendJson(ctx.res, 200, {
        DiskMetrics: [
          {
            HostID: HOST_ID,
            TimestampNS: at,
            Disks: [
              {
                PathDescriptor: { Name: 'Graph', Path: dir },
                SizeMB: Math.round(storeStats(ctx.store).store_file_bytes / MB),
                FreeSizeMB: Math.round((disk.bavail * disk.bsize) / MB),
              },
            ],
          },
        ],
      });
    }
    case 'network':
      // Not measured by the process: an empty list, rather than figures it does not have.
      return sendJson(ctx.res, 200, { NetworkMetrics: [] });
    case 'qps': {
      const uptime = process.uptime();
      const endpoints = ctx.options.figures?.read() ?? [];
      return sendJson(ctx.res, 200, {
        QPSMetrics: endpoints.map((e) => ({
          HostID: HOST_ID,
          TimestampNS: at,
          Endpoint: e.endpoint,
          QPS: e.count / uptime,
        })),
      });
    }
    default:
      return fail(
        'endpointNotFound',
        `Endpoint is not found from url = '${ctx.path}': metrics are cpu-memory, diskspace, network and qps.`,
      );
  }
}

/** `GET /statistics/{graph}`: each endpoint's requests and latency (ms) since the process started. */
function statistics(ctx: RequestContext): void {
  ctx.store.graph(ctx.params.graph, ctx.path);
  const seconds = ctx.query.seconds;
  if (seconds !== undefined && !/^([1-9]|[1-5][0-9]|60)$/.test(seconds))
    fail('invalidParameter', `The parameter 'seconds' must be a whole number from 1 to 60 (got '${seconds}').`);
  const uptime = process.uptime();
  const out: Record<string, unknown> = {};
  for (const e of ctx.options.figures?.read() ?? [])
    out[e.endpoint] = {
      CompletedRequests: e.count,
      QPS: e.count / uptime,
      TimeoutRequests: 0,
      AverageLatency: e.count > 0 ? (1000 * e.sum_seconds) / e.count : 0,
      MaxLatency: e.max_ms,
      MinLatency: e.min_ms,
    };
  sendJson(ctx.res, 200, out);
}

/** `POST /informant/current-service-status`: every service is this process, Online while it answers. */
async function serviceStatus(ctx: RequestContext): Promise<void> {
  const text = (await ctx.body()).toString('utf8');
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return fail('invalidJson', 'The request body is not valid JSON.');
  }
  const asked = (body as { ServiceDescriptors?: unknown }).ServiceDescriptors;
  if (asked !== undefined && (!Array.isArray(asked) || asked.length > SERVICES.length * 4))
    return fail('invalidPayload', "'ServiceDescriptors' must be a list of {ServiceName}.");
  const names = (asked ?? SERVICES.map((ServiceName) => ({ ServiceName }))).map((d: unknown) => {
    const name = (d as { ServiceName?: unknown } | null)?.ServiceName;
    if (typeof name !== 'string' || !SERVICES.includes(name.toUpperCase()))
      return fail('invalidPayload', `Unknown service name ${JSON.stringify(name)}; known: ${SERVICES.join(', ')}.`);
    return name.toUpperCase();
  });
  const at = nowNs();
  sendJson(ctx.res, 200, {
    ServiceStatusEvents: names.map((ServiceName: string) => ({
      ServiceDescriptor: { ServiceName, Partition: 1, Replica: 1 },
      EventTimeStamp: at,
      ServiceStatus: 'Online',
      ProcessState: 'Running',
    })),
  });
}

/**
 * `GET /rebuildnow/{graph}`: TigerGraph merges recent writes into its segments. Here every
 * write is in place when it commits, so there is nothing to rebuild; the answer is
 * TigerGraph's, and nothing is written to the folder it names.
 */
function rebuildNow(ctx: RequestContext): void {
  ctx.store.graph(ctx.params.graph, ctx.path);
  const folder = ctx.query.path ?? '/tmp/rebuildnow';
  sendResults(ctx, {}, { message: `RebuildNow finished, please check details in the folder: ${folder}` });
}

export function registerAdmin(router: Router, prefixes: string[]): void {
  route(router, 'POST', '/informant/metrics/get/:what', systemMetrics);
  route(router, 'POST', '/informant/current-service-status', serviceStatus);
  for (const prefix of prefixes) {
    route(router, 'GET', `${prefix}/statistics/:graph`, statistics);
    route(router, 'GET', `${prefix}/rebuildnow/:graph`, rebuildNow);
  }
}
