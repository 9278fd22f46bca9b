import type { WorkspaceSpec } from '../driver.js';

/** Heap bounds for one data-plane process on a developer's machine, in MiB. */
export const MIN_HEAP_MB = 64;
export const MAX_HEAP_MB = 1024;
/** The resolved memory is scaled down by this much: TG-00's 16 GB becomes a 128 MiB heap. */
export const MEMORY_SCALE = 128;

/** What a workspace's process runs with; a change of any of it restarts the process. */
export interface RuntimeShape {
  storeFile: string;
  readOnly: boolean;
  version: string;
  maxHeapMb: number;
  replicas: number;
}

/** The heap a size gets: its memory scaled down for a laptop, within bounds. */
export function heapMbFor(memoryGb: number): number {
  return Math.min(MAX_HEAP_MB, Math.max(MIN_HEAP_MB, Math.round((memoryGb * 1024) / MEMORY_SCALE)));
}

export function runtimeShape(spec: WorkspaceSpec, storeFile: string): RuntimeShape {
  return {
    storeFile,
    readOnly: spec.readOnly,
    version: spec.version,
    maxHeapMb: heapMbFor(spec.size.memoryGb),
    replicas: spec.replicas,
  };
}

/** The shape as a short text, recorded with the runtime so any process can compare it. */
export const shapeKey = (shape: RuntimeShape): string => JSON.stringify(shape);
