import type { GraphStore } from '../graph-store.js';
import { DataPlaneError, type ErrorKind } from '../errors.js';

/**
 * Detached runs (`GSQL-ASYNC: true`): the query runs as it would have, and its answer is kept
 * under a request id for `/query_status` and `/query_result`. Queries here run to their end
 * before the request is answered, so a detached run is already finished when its id is given.
 * The last `KEPT` runs of each store are kept, the oldest forgotten first.
 */
const KEPT = 100;

export interface DetachedRun {
  requestid: string;
  graph: string;
  query: string;
  startTime: string;
  endTime: string;
  status: 'success' | 'aborted';
  results?: unknown[];
  error?: { kind: ErrorKind; message: string };
}

const runsByStore = new WeakMap<GraphStore, Map<string, DetachedRun>>();
let counter = 0;

const timeText = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** Runs `run` now and keeps its outcome; answers the request id. */
export function runDetached(store: GraphStore, graph: string, query: string, run: () => unknown[]): string {
  let runs = runsByStore.get(store);
  if (!runs) runsByStore.set(store, (runs = new Map()));
  const started = Date.now();
  const requestid = `${++counter}.RESTPP_1_1.${started}.N`;
  const kept: DetachedRun = { requestid, graph, query, startTime: timeText(started), endTime: '', status: 'success' };
  try {
    kept.results = run();
  } catch (err) {
    if (!(err instanceof DataPlaneError)) throw err;
    kept.status = 'aborted';
    kept.error = { kind: err.kind, message: err.message };
  }
  kept.endTime = timeText(Date.now());
  runs.set(requestid, kept);
  if (runs.size > KEPT) runs.delete(runs.keys().next().value!);
  return requestid;
}

/** The kept runs of a graph: one by id, or all of them for `all`. */
export function detachedRuns(store: GraphStore, graph: string | undefined, requestid: string): DetachedRun[] {
  const runs = [...(runsByStore.get(store)?.values() ?? [])].filter((r) => graph === undefined || r.graph === graph);
  if (requestid === 'all') return runs;
  const one = runs.find((r) => r.requestid === requestid);
  if (!one) throw new DataPlaneError('invalidParameter', `The request ${requestid} is not known.`);
  return [one];
}
