import type { WorkspaceReading, WorkspaceSpec } from '../driver.js';

const GIB = 1024 ** 3;
/** The period of the modelled CPU load's swing. */
const CYCLE_MS = 10 * 60_000;
/** What a runtime keeps on disk besides its graph: catalog, logs. */
const BASE_DISK_BYTES = 64 * 1024 * 1024;

/** A fraction in [0, 1) fixed by the workspace id (FNV-1a), so workspaces do not swing in step. */
function phaseOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h / 2 ** 32;
}

/**
 * Modelled figures of a simulated workspace, from its size, its data and the time alone
 * (docs/metrics.md): CPU swings by 3 points around 4% of its cores over ten minutes, plus a
 * point per GiB of graph (at most 30); memory is 12% of its size plus twice its graph (at most
 * 90%); disk its graph plus 64 MiB. It has no data plane, so it serves no requests.
 */
export function simulatedReading(spec: WorkspaceSpec, now: number): WorkspaceReading {
  const graph = spec.observed.topologyBytes ?? 0;
  const swing = 3 * Math.sin(2 * Math.PI * (now / CYCLE_MS + phaseOf(spec.workspaceId)));
  const memory = spec.size.memoryGb * GIB;
  return {
    cpuPercent: Math.max(0, 4 + swing + Math.min(30, graph / GIB)),
    memoryBytes: Math.min(0.9 * memory, 0.12 * memory + 2 * graph),
    diskBytes: graph + BASE_DISK_BYTES,
    vertexCount: spec.observed.vertexCount ?? 0,
    edgeCount: spec.observed.edgeCount ?? 0,
    endpoints: [],
  };
}
