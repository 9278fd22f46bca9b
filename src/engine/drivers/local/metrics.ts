import {
  DATA_PLANE_SECRET_HEADER,
  STATS_KEY_HEADER,
  STATS_PATH,
  dataPlaneSecret,
  statsKey,
  type EndpointFigures,
} from '../../../dataplane/index.js';
import type { WorkspaceReading, WorkspaceSpec } from '../driver.js';

/** What the data-plane process answers at STATS_PATH (src/dataplane/stats-route.ts). */
interface ProcessStats {
  uptime_seconds: number;
  /** Percent of one core since the previous reading. */
  cpu_percent: number;
  memory_rss_bytes: number;
  store_file_bytes: number;
  vertex_count: number;
  edge_count: number;
  vertices_by_type: Record<string, number>;
  edges_by_type: Record<string, number>;
  endpoints: EndpointFigures[];
}

/**
 * The figures of a workspace's data-plane process, read from the process itself: its CPU
 * time and memory, its store file, its counts by type and its requests' latency. The
 * process's secret and the stats key derived from it go with the request; `signal` bounds it.
 */
export async function readProcessMetrics(
  dataDir: string,
  spec: WorkspaceSpec,
  signal: AbortSignal,
): Promise<WorkspaceReading> {
  const endpoint = spec.observed.endpoint;
  if (!endpoint) throw new Error(`workspace ${spec.workspaceId} has no data-plane process serving it`);
  const secret = dataPlaneSecret(dataDir, spec.workspaceId);
  const res = await fetch(`http://${endpoint}${STATS_PATH}`, {
    headers: { [DATA_PLANE_SECRET_HEADER]: secret, [STATS_KEY_HEADER]: statsKey(secret) },
    signal,
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`the data-plane process answered ${res.status}`);
  }
  const stats = (await res.json()) as ProcessStats;
  return {
    cpuPercent: stats.cpu_percent / Math.max(1, spec.size.cpu),
    memoryBytes: stats.memory_rss_bytes,
    diskBytes: stats.store_file_bytes,
    uptimeSeconds: stats.uptime_seconds,
    vertexCount: stats.vertex_count,
    edgeCount: stats.edge_count,
    verticesByType: stats.vertices_by_type,
    edgesByType: stats.edges_by_type,
    endpoints: stats.endpoints.map((e) => ({
      endpoint: e.endpoint,
      count: e.count,
      sumSeconds: e.sum_seconds,
      minMs: e.min_ms,
      maxMs: e.max_ms,
      buckets: e.buckets,
    })),
  };
}
