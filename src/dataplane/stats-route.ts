import { createHmac, timingSafeEqual } from 'node:crypto';
import { DataPlaneError } from './errors.js';
import { route, sendJson, type RequestContext, type Router } from './http-server.js';
import type { RequestFigures } from './request-figures.js';
import { storeStats } from './snapshot.js';

/** Where the control plane reads the process's figures; not a TigerGraph endpoint. */
export const STATS_PATH = '/_acacia/stats';
/** Header carrying the stats key: the gateway adds the shared secret to every request it passes on, never this. */
export const STATS_KEY_HEADER = 'x-acacia-stats-key';

/**
 * The key the stats route asks for, derived from the shared secret: a database user's request
 * reaches the process through the gateway with the secret, but cannot present this, so the
 * figures (and the counts they cost) stay the control plane's.
 */
export function statsKey(secret: string): string {
  return createHmac('sha256', secret).update('acacia data-plane stats').digest('hex');
}

const notFound = (path: string) =>
  new DataPlaneError(
    'endpointNotFound',
    `Endpoint is not found from url = '${path}', please use GET /endpoints to list all valid endpoints.`,
  );

/** Rows of each type id, by the type's name (one pass over an index per table). */
function countsByType(ctx: RequestContext, table: 'vertices' | 'edges'): Record<string, number> {
  const rows = ctx.store.db.prepare(`SELECT type_id, count(*) AS n FROM ${table} GROUP BY type_id`).raw().all() as [
    number,
    number,
  ][];
  const names = table === 'vertices' ? ctx.store.catalog.vertexTypesById : ctx.store.catalog.edgeTypesById;
  const out: Record<string, number> = {};
  for (const [id, n] of rows) out[names.get(id)?.name ?? String(id)] = n;
  return out;
}

/** The process's own figures: CPU, memory, its store file, counts by type and its requests' latency. */
export function registerStats(router: Router, figures: RequestFigures): void {
  // CPU is a share of one core over the time since the previous reading (since start at first).
  let last = { at: performance.now() - process.uptime() * 1000, cpu: { user: 0, system: 0 } };
  route(
    router,
    'GET',
    STATS_PATH,
    (ctx) => {
      const presented = ctx.req.headers[STATS_KEY_HEADER];
      const expected = Buffer.from(statsKey(ctx.options.secret));
      if (typeof presented !== 'string' || presented.length !== expected.length) throw notFound(ctx.path);
      if (!timingSafeEqual(Buffer.from(presented), expected)) throw notFound(ctx.path);
      const now = { at: performance.now(), cpu: process.cpuUsage() };
      const usedMs = (now.cpu.user + now.cpu.system - last.cpu.user - last.cpu.system) / 1000;
      const cpuPercent = now.at > last.at ? (100 * usedMs) / (now.at - last.at) : 0;
      last = now;
      const stats = storeStats(ctx.store);
      sendJson(ctx.res, 200, {
        uptime_seconds: process.uptime(),
        cpu_percent: Math.max(0, cpuPercent),
        memory_rss_bytes: process.memoryUsage.rss(),
        store_file_bytes: stats.store_file_bytes,
        vertex_count: stats.vertex_count,
        edge_count: stats.edge_count,
        vertices_by_type: countsByType(ctx, 'vertices'),
        edges_by_type: countsByType(ctx, 'edges'),
        endpoints: figures.read(),
      });
    },
    { counted: false },
  );
}
