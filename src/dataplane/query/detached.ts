import type { GraphStore } from '../graph-store.js';
import { DataPlaneError, type ErrorKind } from '../errors.js';
import { heapLimit } from './memory-guard.js';

/**
 * Detached runs (`GSQL-ASYNC: true`): the request is answered with its request id at once, and
 * the run goes on in the store's query turn (running.ts); its outcome is kept under that id for
 * `/query_status` and `/query_result`. The last `KEPT` finished runs of each store are kept, and
 * no more of them than hold `KEPT_BYTES` of results together (the newest always, however large:
 * a query's answer is bounded by its output limit), the oldest forgotten first; runs still
 * going are never forgotten (no more of them than the query turns let wait). Results are kept
 * as their JSON text, the most compact form, and KEPT_BYTES is at most an eighth of the
 * process's heap, so that answers nobody fetches cannot fill it.
 */
const KEPT = 100;
export const KEPT_BYTES = Math.min(64 * 1024 * 1024, Math.floor(heapLimit / 8));

export interface DetachedRun {
  requestid: string;
  graph: string;
  query: string;
  startTime: string;
  endTime: string;
  status: 'running' | 'success' | 'aborted';
  /** When it arrived and when it ended (epoch ms). */
  started: number;
  ended?: number;
  /** The results as JSON text. */
  results?: string;
  error?: { kind: ErrorKind; message: string };
}

/** What a kept run counts against KEPT_BYTES: the length of its results' text. */
const sizeOf = (run: DetachedRun) => run.results?.length ?? 0;

const runsByStore = new WeakMap<GraphStore, { runs: Map<string, DetachedRun>; bytes: number }>();

/** A time as REST++ writes it: `2024-06-26 06:35:58.395`, UTC. */
export const timeText = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

/**
 * Keeps a detached run under its request id while `results` settles, then its outcome. A
 * failure that is not a refusal (a defect) is kept as an internal error and handed to `unexpected`.
 */
export function runDetached(
  store: GraphStore,
  request: { requestid: string; graph: string; started: number },
  query: string,
  results: Promise<unknown[]>,
  unexpected: (err: unknown) => void,
  keptBytes = KEPT_BYTES,
): void {
  let kept = runsByStore.get(store);
  if (!kept) runsByStore.set(store, (kept = { runs: new Map(), bytes: 0 }));
  const { requestid, graph, started } = request;
  const one: DetachedRun = {
    requestid,
    graph,
    query,
    startTime: timeText(started),
    endTime: '',
    status: 'running',
    started,
  };
  kept.runs.set(requestid, one);
  const held = kept;
  // The outcome and its bookkeeping in one step: runs settle in the order they end.
  const settle = (outcome: () => void) => {
    outcome();
    one.ended = Date.now();
    one.endTime = timeText(one.ended);
    held.bytes += sizeOf(one);
    forgetOld(held, one, keptBytes);
  };
  const failed = (err: unknown) => {
    one.status = 'aborted';
    if (err instanceof DataPlaneError) one.error = { kind: err.kind, message: err.message };
    else {
      one.error = { kind: 'internal', message: 'The query failed unexpectedly; the data-plane log has the details.' };
      unexpected(err);
    }
  };
  results.then(
    (r) =>
      settle(() => {
        try {
          one.results = JSON.stringify(r);
          one.status = 'success';
        } catch (err) {
          failed(err);
        }
      }),
    (err: unknown) => settle(() => failed(err)),
  );
}

/** Forgets the oldest finished runs past the bounds, never `newest` nor a run still going. */
function forgetOld(kept: { runs: Map<string, DetachedRun>; bytes: number }, newest: DetachedRun, keptBytes: number) {
  let finished = 0;
  for (const r of kept.runs.values()) if (r.status !== 'running') finished++;
  for (const [id, old] of kept.runs) {
    if (finished <= KEPT && kept.bytes <= keptBytes) break;
    if (old === newest || old.status === 'running') continue;
    kept.runs.delete(id);
    kept.bytes -= sizeOf(old);
    finished--;
  }
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
