import { randomInt } from 'node:crypto';
import type { GraphStore } from '../graph-store.js';
import { DataPlaneError, type ErrorKind } from '../errors.js';
import { heapLimit } from './memory-guard.js';

/**
 * Detached runs (`GSQL-ASYNC: true`): the query runs as it would have, and its answer is kept
 * under a request id for `/query_status` and `/query_result`. Queries here run to their end
 * before the request is answered, so a detached run is already finished when its id is given.
 * The last `KEPT` runs of each store are kept, and no more of them than hold `KEPT_BYTES` of
 * results together (the newest always, however large: a query's answer is bounded by its
 * output limit), the oldest forgotten first. Results are kept as their JSON text, the most
 * compact form, and KEPT_BYTES is at most an eighth of the process's heap, so that answers
 * nobody fetches cannot fill it. Ids carry a random number where TigerGraph's carry a counter,
 * so that one run's id tells nothing of another's.
 */
const KEPT = 100;
export const KEPT_BYTES = Math.min(64 * 1024 * 1024, Math.floor(heapLimit / 8));

export interface DetachedRun {
  requestid: string;
  graph: string;
  query: string;
  startTime: string;
  endTime: string;
  status: 'success' | 'aborted';
  /** The results as JSON text. */
  results?: string;
  error?: { kind: ErrorKind; message: string };
}

/** What a kept run counts against KEPT_BYTES: the length of its results' text. */
const sizeOf = (run: DetachedRun) => run.results?.length ?? 0;

const runsByStore = new WeakMap<GraphStore, { runs: Map<string, DetachedRun>; bytes: number }>();

const timeText = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** Runs `run` now and keeps its outcome; answers the request id. */
export function runDetached(
  store: GraphStore,
  graph: string,
  query: string,
  run: () => unknown[],
  keptBytes = KEPT_BYTES,
): string {
  let kept = runsByStore.get(store);
  if (!kept) runsByStore.set(store, (kept = { runs: new Map(), bytes: 0 }));
  const started = Date.now();
  const requestid = `${randomInt(2 ** 47)}.RESTPP_1_1.${started}.N`;
  const one: DetachedRun = {
    requestid,
    graph,
    query,
    startTime: timeText(started),
    endTime: '',
    status: 'success',
  };
  try {
    one.results = JSON.stringify(run());
  } catch (err) {
    if (!(err instanceof DataPlaneError)) throw err;
    one.status = 'aborted';
    one.error = { kind: err.kind, message: err.message };
  }
  one.endTime = timeText(Date.now());
  kept.runs.set(requestid, one);
  kept.bytes += sizeOf(one);
  for (const [id, old] of kept.runs) {
    if (id === requestid || (kept.runs.size <= KEPT && kept.bytes <= keptBytes)) break;
    kept.runs.delete(id);
    kept.bytes -= sizeOf(old);
  }
  return requestid;
}

/** The kept runs of a graph: one by id, or all of them for `all`. */
export function detachedRuns(store: GraphStore, graph: string | undefined, requestid: string): DetachedRun[] {
  const kept = runsByStore.get(store)?.runs.values() ?? [];
  const runs = [...kept].filter((r) => graph === undefined || r.graph === graph);
  if (requestid === 'all') return runs;
  const one = runs.find((r) => r.requestid === requestid);
  if (!one) throw new DataPlaneError('invalidParameter', `The request ${requestid} is not known.`);
  return [one];
}
