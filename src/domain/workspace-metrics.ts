import type { WorkspaceStatus } from '../schemas/vocabulary.js';
import type { WorkgroupMetric, WorkspaceMetric } from '../schemas/metrics.js';
import { findWorkspace, type Workspace } from '../store/repositories/workspaces.js';
import type { Store } from '../store/store.js';
import { findSize, type Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import { notFound } from './errors.js';
import type { Principal } from './principal.js';
import type { WorkgroupService } from './workgroups.js';

/** What one data-plane endpoint has been seen to take since the workspace's runtime started. */
export interface EndpointLatency {
  /** Method and route pattern: `GET /restpp/graph/{graph}/vertices/{vtype}`. */
  endpoint: string;
  count: number;
  sumSeconds: number;
  minMs: number;
  maxMs: number;
  /** Cumulative counts at each upper bound in seconds (Prometheus's `le`); +Inf is `count`. */
  buckets: ReadonlyArray<readonly [number, number]>;
}

/** What a driver reads of a running workspace: the figures the metrics are made of. */
export interface WorkspaceReading {
  /** CPU in use, percent of the workspace's cores. */
  cpuPercent: number;
  memoryBytes: number;
  /** Bytes the graph takes on disk. */
  diskBytes: number;
  /** How long the runtime has run; absent when the driver has no runtime to ask (then: since creation). */
  uptimeSeconds?: number;
  vertexCount: number;
  edgeCount: number;
  /** Counts by type name, where the driver can read them cheaply. */
  verticesByType?: Readonly<Record<string, number>>;
  edgesByType?: Readonly<Record<string, number>>;
  endpoints: readonly EndpointLatency[];
}

/** Reads a running workspace's figures (the driver's `metrics`); rejects when it cannot. */
export type ReadWorkspaceMetrics = (ws: Workspace, signal: AbortSignal) => Promise<WorkspaceReading>;

export interface MetricSample {
  /** The sample's name: the family's, or a histogram's `_bucket`, `_sum` and `_count`. */
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'gauge' | 'counter' | 'histogram';
  samples: MetricSample[];
}

export interface MetricsSettings {
  /** How long a reading serves every scrape of the workspace (engine clock, ms). */
  cacheMs: number;
  /** How long a reading may take before the workspace is reported down. */
  timeoutMs: number;
}

export const defaultMetricsSettings: MetricsSettings = { cacheMs: 2000, timeoutMs: 2000 };

/**
 * TigerGraph's `tigergraph_service_status` values by workspace status: 6 online, 9 warmup,
 * 15 starting, 18 paused, 21 stopping, 24 offline, 27 down.
 */
const serviceStatus: Record<WorkspaceStatus, number> = {
  Active: 6,
  Updating: 6,
  Refreshing: 9,
  Creating: 15,
  Resuming: 15,
  Stopped: 18,
  Idle: 18,
  Pausing: 21,
  Deleting: 21,
  Restoring: 24,
  Failed: 27,
};
const DOWN = 27;

/** The statuses whose runtime serves, and is asked for its figures. */
const serving = new Set<string>(['Active', 'Updating']);

/** The services the data plane stands for, each reported with the workspace's status. */
const services = ['GPE', 'GSE', 'GSQL', 'RESTPP'];

const MIB = 1024 * 1024;
const CACHE_ENTRIES = 1024;

interface Cached {
  at: number;
  reading: Promise<WorkspaceReading | undefined>;
}

/**
 * A workspace's metrics in TigerGraph's names (docs/metrics.md): read from the driver while it
 * runs, from its row otherwise (a paused workspace is not woken). One reading serves every
 * scrape of the workspace for `cacheMs`, a failed one too, and none waits longer than
 * `timeoutMs`: a scrape storm costs the data plane one reading per window, and a data plane
 * that does not answer is reported down instead of holding the scrape.
 */
export class WorkspaceMetricsService {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workgroups: WorkgroupService,
    private readonly read: ReadWorkspaceMetrics,
    private readonly settings: MetricsSettings = defaultMetricsSettings,
  ) {}

  /** The families of one workspace of the caller's organisation. */
  async workspace(p: Principal, workgroupId: string, workspaceId: string): Promise<MetricFamily[]> {
    const db = this.store.db;
    const ws = await findWorkspace(db, p.orgId, workspaceId);
    if (!ws || ws.workgroup_id !== workgroupId) {
      await this.workgroups.load(db, p, workgroupId);
      throw notFound('workspaceID', `no workspace "${workspaceId}" in workgroup ${workgroupId}`);
    }
    return this.families(ws);
  }

  /** Every workspace of the workgroup, each metric the average of its samples. */
  async workgroup(p: Principal, workgroupId: string): Promise<WorkgroupMetric> {
    const view = await this.workgroups.view(this.store.db, p, workgroupId);
    const workspaceMetrics = await Promise.all(
      view.workspaces.map(async (ws): Promise<WorkspaceMetric> => ({
        workspaceID: ws.id,
        metrics: summary(await this.families(ws)),
      })),
    );
    return { workgroupID: view.workgroup.id, workspaceMetrics };
  }

  private async families(ws: Workspace): Promise<MetricFamily[]> {
    const now = this.clock.now();
    const reading = serving.has(ws.status) ? await this.reading(ws, now) : undefined;
    return workspaceFamilies(ws, reading, serving.has(ws.status), this.catalog, now);
  }

  private reading(ws: Workspace, now: number): Promise<WorkspaceReading | undefined> {
    const held = this.cache.get(ws.id);
    if (held && now >= held.at && now - held.at < this.settings.cacheMs) return held.reading;
    if (this.cache.size >= CACHE_ENTRIES) {
      for (const [id, c] of this.cache) if (!(now >= c.at && now - c.at < this.settings.cacheMs)) this.cache.delete(id);
      if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
    }
    // Bounded here too: a reader that ignores its signal must not hold the scrape.
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    const late = new Promise<never>((_resolve, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
    );
    const reading = Promise.race([this.read(ws, signal), late]).catch(() => undefined);
    this.cache.set(ws.id, { at: now, reading });
    return reading;
  }
}

/**
 * The families of one workspace: its reading when it runs and answered, else what its row
 * says (counts and size as last observed, no CPU or memory in use).
 */
export function workspaceFamilies(
  ws: Workspace,
  reading: WorkspaceReading | undefined,
  shouldServe: boolean,
  catalog: Catalog,
  now: number,
): MetricFamily[] {
  const base = { workgroup_id: ws.workgroup_id, workspace_id: ws.id, host_id: 'm1' };
  const one = (name: string, type: MetricFamily['type'], help: string, value: number, labels = {}) => ({
    name,
    help,
    type,
    samples: [{ name, labels: { ...base, ...labels }, value }],
  });
  const node = { service_name: '' };
  const size = findSize(catalog, ws.size);
  const cores = size?.cpu ?? 0;
  const memoryTotal = (size?.memory_gb ?? 0) * 1024;
  const cpu = reading ? Math.min(100, reading.cpuPercent) : 0;
  const memory = reading ? reading.memoryBytes / MIB : 0;
  const status = shouldServe && !reading ? DOWN : (serviceStatus[ws.status as WorkspaceStatus] ?? 3);
  const uptime = reading ? (reading.uptimeSeconds ?? Math.max(0, now - ws.created_at) / 1000) : 0;

  const families: MetricFamily[] = [
    one(
      'tigergraph_up',
      'gauge',
      'Whether the workspace runs and answered this reading (1) or not (0)',
      reading ? 1 : 0,
    ),
    {
      name: 'tigergraph_service_status',
      help: 'Service status: 6 online, 9 warmup, 15 starting, 18 paused, 21 stopping, 24 offline, 27 down',
      type: 'gauge',
      samples: services.map((s) => ({
        name: 'tigergraph_service_status',
        labels: { ...base, service_name: s },
        value: status,
      })),
    },
    one('tigergraph_uptime_seconds', 'gauge', 'Seconds the workspace has run since it last started', uptime),
    one('tigergraph_cpu_logical_cores_total', 'gauge', 'Logical CPU cores of the workspace', cores, node),
    one('tigergraph_cpu_usage', 'gauge', 'Percentage of CPU usage; empty service_name: the whole workspace', cpu, node),
    one('tigergraph_cpu_available', 'gauge', 'Percentage of available CPU capacity', 100 - cpu, node),
    one('tigergraph_memory_total', 'gauge', 'Total memory of the workspace in megabytes', memoryTotal, node),
    one(
      'tigergraph_memory_usage',
      'gauge',
      'Memory usage in megabytes; empty service_name: the whole workspace',
      memory,
      node,
    ),
    one(
      'tigergraph_memory_available',
      'gauge',
      'Memory available in megabytes',
      Math.max(0, memoryTotal - memory),
      node,
    ),
    one(
      'tigergraph_memory_usage_percent',
      'gauge',
      'Memory usage percentage of the workspace',
      memoryTotal > 0 ? (100 * memory) / memoryTotal : 0,
      node,
    ),
    one(
      'tigergraph_diskspace_usage',
      'gauge',
      'Disk space usage in megabytes by directory',
      (reading?.diskBytes ?? ws.graph_topology_size_bytes) / MIB,
      { path_name: 'Gstore' },
    ),
    one('tigergraph_vertex_count', 'gauge', 'Vertices in the graph', reading?.vertexCount ?? ws.vertex_count),
    one('tigergraph_edge_count', 'gauge', 'Edges in the graph', reading?.edgeCount ?? ws.edge_count),
  ];
  const byType = (name: string, help: string, label: string, counts: Readonly<Record<string, number>> | undefined) => {
    const entries = Object.entries(counts ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length > 0)
      families.push({
        name,
        help,
        type: 'gauge',
        samples: entries.map(([type, n]) => ({ name, labels: { ...base, [label]: type }, value: n })),
      });
  };
  byType('tigergraph_vertex_count_by_type', 'Vertices by vertex type', 'vertex_type', reading?.verticesByType);
  byType('tigergraph_edge_count_by_type', 'Edges by edge type', 'edge_type', reading?.edgesByType);

  const endpoints = reading?.endpoints ?? [];
  if (endpoints.length > 0) families.push(...queryFamilies(endpoints, base));
  return families;
}

/** Query counts and latency by endpoint: a histogram, and TigerGraph's latency statistics. */
function queryFamilies(endpoints: readonly EndpointLatency[], base: Record<string, string>): MetricFamily[] {
  const histogram = 'tigergraph_query_duration_seconds';
  const latency = 'tigergraph_endpoint_latency';
  const completed = 'tigergraph_endpoint_completed';
  const sorted = [...endpoints].sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0));
  return [
    {
      name: histogram,
      help: 'Data-plane request latency in seconds by endpoint, since the workspace last started',
      type: 'histogram',
      samples: sorted.flatMap((e) => {
        const labels = { ...base, endpoint: e.endpoint };
        return [
          ...e.buckets.map(([le, n]) => ({
            name: `${histogram}_bucket`,
            labels: { ...labels, le: String(le) },
            value: n,
          })),
          { name: `${histogram}_bucket`, labels: { ...labels, le: '+Inf' }, value: e.count },
          { name: `${histogram}_sum`, labels, value: e.sumSeconds },
          { name: `${histogram}_count`, labels, value: e.count },
        ];
      }),
    },
    {
      name: completed,
      help: 'Requests completed by endpoint since the workspace last started',
      type: 'gauge',
      samples: sorted.map((e) => ({ name: completed, labels: { ...base, endpoint: e.endpoint }, value: e.count })),
    },
    {
      name: latency,
      help: 'Latency of completed requests in milliseconds by endpoint: max, min and average',
      type: 'gauge',
      samples: sorted.flatMap((e) =>
        (
          [
            ['max_latency', e.maxMs],
            ['min_latency', e.minMs],
            ['average_latency', e.count > 0 ? (1000 * e.sumSeconds) / e.count : 0],
          ] as const
        ).map(([statistic, value]) => ({
          name: latency,
          labels: { ...base, endpoint: e.endpoint, statistic },
          value,
        })),
      ),
    },
  ];
}

/**
 * Each family as one figure: the average of its samples; a histogram's, the average
 * observation (its sums over its counts).
 */
export function summary(families: readonly MetricFamily[]): Record<string, { avgValue: number }> {
  const out: Record<string, { avgValue: number }> = {};
  for (const f of families) {
    if (f.type === 'histogram') {
      const total = (suffix: string) =>
        f.samples.filter((s) => s.name === `${f.name}${suffix}`).reduce((sum, s) => sum + s.value, 0);
      const count = total('_count');
      out[f.name] = { avgValue: count > 0 ? total('_sum') / count : 0 };
    } else if (f.samples.length > 0) {
      out[f.name] = { avgValue: f.samples.reduce((sum, s) => sum + s.value, 0) / f.samples.length };
    }
  }
  return out;
}
