import type { OperationRecord } from '../schemas/operation.js';
import { stableStatuses, type WorkspaceStatus } from '../schemas/vocabulary.js';
import type { WorkspaceRecord } from '../schemas/workspace.js';
import { AcaciaApiError, isConnectionLoss } from './errors.js';
import type { ApiResponse } from './surface.js';
import type { EventStreamReader } from './event-stream.js';

/** What waitFor follows: an operation, or a workspace to a stable (or the given) status. */
export type WaitTarget =
  | { operation: string }
  | {
      workgroup: string;
      workspace: string;
      /** The status (or statuses) to wait for; `Deleted` waits until the workspace is gone. */
      status?: WorkspaceStatus | 'Deleted' | readonly WorkspaceStatus[];
    };

export interface WaitOptions<T> {
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
  /** Time between reads (default: 100 ms, growing by half each read up to 2 s). */
  intervalMs?: number;
  /** Sees every state read, e.g. to show progress. */
  onProgress?: (state: T) => void;
  /**
   * How long the server may stay unreachable (a restart) before the wait gives up with the
   * connection's error (default 60 s); meanwhile it reads again, backing off up to 2 s.
   */
  reconnectMs?: number;
  /** Told when the connection is lost (true) and when a read succeeds again after it (false). */
  onConnectionLost?: (lost: boolean) => void;
}

/** Time as waitFor sees it. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The wait ran out of time; `last` is the last state read. */
export class AcaciaWaitTimeoutError extends Error {
  constructor(
    readonly target: WaitTarget,
    readonly timeoutMs: number,
    readonly last: OperationRecord | WorkspaceRecord | undefined,
  ) {
    const what = 'operation' in target ? `operation ${target.operation}` : `workspace ${target.workspace}`;
    const state =
      last === undefined ? 'nothing read yet' : 'state' in last ? `state ${last.state}` : `status ${last.status}`;
    super(`timed out after ${timeoutMs} ms waiting for ${what} (last seen: ${state})`);
    this.name = 'AcaciaWaitTimeoutError';
  }
}

/** The operation followed ended failed; `operation.error` says why. */
export class AcaciaOperationFailedError extends Error {
  constructor(readonly operation: OperationRecord) {
    super(`operation ${operation.id} (${operation.kind}) failed: ${operation.error ?? 'no reason given'}`);
    this.name = 'AcaciaOperationFailedError';
  }
}

/** The workspace followed ended Failed; `workspace.err_message` says why. */
export class AcaciaWorkspaceFailedError extends Error {
  constructor(readonly workspace: WorkspaceRecord) {
    super(`workspace ${workspace.workspace_id} failed: ${workspace.err_message ?? 'no reason given'}`);
    this.name = 'AcaciaWorkspaceFailedError';
  }
}

/** What waitFor needs of the client. */
interface Reader {
  operations: { get(id: string): Promise<ApiResponse<OperationRecord>> };
  workspaces: { get(wg: string, ws: string): Promise<ApiResponse<WorkspaceRecord>> };
  /**
   * The server's event stream of one resource, resumed after lastEventId; undefined when the
   * server has none (404), and then waitFor polls.
   */
  openEvents?(resourceId: string, lastEventId?: string): Promise<EventStreamReader | undefined>;
}

/** Following a stream, the record is read again this long after the last event anyway (a safety net). */
const STREAM_RECHECK_MS = 30_000;

/** One read: done with a value, or not yet with the state seen. */
type Step<T> = { done: true; value: T } | { done: false; state: T | undefined };

export async function waitForChange(
  client: Reader,
  target: WaitTarget,
  options: WaitOptions<OperationRecord> & WaitOptions<WorkspaceRecord>,
  clock: Clock = systemClock,
): Promise<OperationRecord | WorkspaceRecord | undefined> {
  const fail = (response: ApiResponse<unknown>) => new AcaciaApiError(response);
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const deadline = clock.now() + timeoutMs;
  const readOnce = 'operation' in target ? readOperation(client, target, fail) : readWorkspace(client, target, fail);
  const timedOut = () => new AcaciaWaitTimeoutError(target, timeoutMs, last);
  // A read the connection broke is read again: a server restarting under the wait does not
  // end it, and what the change did is what the read after it says.
  const reconnectMs = options.reconnectMs ?? 60_000;
  const read = async () => {
    let lostSince: number | undefined;
    let interval = 100;
    for (;;) {
      try {
        const step = await readOnce();
        if (lostSince !== undefined) options.onConnectionLost?.(false);
        return step;
      } catch (err) {
        if (!isTransient(err)) throw err;
        const now = clock.now();
        if (lostSince === undefined) options.onConnectionLost?.(true);
        lostSince ??= now;
        if (now >= deadline) throw timedOut();
        if (now - lostSince >= reconnectMs) throw err;
        await clock.sleep(Math.min(interval, deadline - now));
        interval = Math.min(interval * 2, 2000);
      }
    }
  };
  const resourceId = 'operation' in target ? target.operation : target.workspace;
  const stream = await client.openEvents?.(resourceId).catch(() => undefined);
  let last: OperationRecord | WorkspaceRecord | undefined;
  const seen = (state: OperationRecord | WorkspaceRecord | undefined) => {
    last = state;
    if (last !== undefined) options.onProgress?.(last as OperationRecord & WorkspaceRecord);
  };
  if (stream) {
    // The stream only says when to read again: the record read is what decides.
    let current: EventStreamReader | undefined = stream;
    try {
      while (current) {
        const step = await read();
        if (step.done) return step.value;
        seen(step.state);
        const left = deadline - clock.now();
        if (left <= 0) throw timedOut();
        const got = await current.next(Math.min(left, STREAM_RECHECK_MS));
        if (got !== 'closed') continue;
        // The stream ended (the server restarted, say): resume after the last event, read again.
        const after: string | undefined = current.lastEventId;
        current.close();
        current = await client.openEvents!(resourceId, after).catch(() => undefined);
      }
    } finally {
      current?.close();
    }
  }
  let interval = options.intervalMs ?? 100;
  for (;;) {
    const step = await read();
    if (step.done) return step.value;
    seen(step.state);
    const left = deadline - clock.now();
    if (left <= 0) throw timedOut();
    await clock.sleep(Math.min(interval, left));
    if (options.intervalMs === undefined) interval = Math.min(interval * 1.5, 2000);
  }
}

/** A lost connection, or the server saying it cannot answer for now (502, 503, 504). */
function isTransient(err: unknown): boolean {
  if (err instanceof AcaciaApiError) return [502, 503, 504].includes(err.response.status);
  return isConnectionLoss(err);
}

function readOperation(
  client: Reader,
  target: { operation: string },
  fail: (response: ApiResponse<unknown>) => Error,
): () => Promise<Step<OperationRecord>> {
  return async () => {
    const res = await client.operations.get(target.operation);
    if (res.status !== 200 || res.body.Error) throw fail(res);
    const op = res.body.Result;
    if (op.state === 'failed') throw new AcaciaOperationFailedError(op);
    return op.state === 'succeeded' ? { done: true, value: op } : { done: false, state: op };
  };
}

function readWorkspace(
  client: Reader,
  target: Extract<WaitTarget, { workspace: string }>,
  fail: (response: ApiResponse<unknown>) => Error,
): () => Promise<Step<WorkspaceRecord | undefined>> {
  const wanted = target.status === undefined ? undefined : ([] as string[]).concat(target.status);
  return async () => {
    const res = await client.workspaces.get(target.workgroup, target.workspace);
    if (res.status === 404 && wanted?.includes('Deleted')) return { done: true, value: undefined };
    if (res.status !== 200 || res.body.Error) throw fail(res);
    const ws = res.body.Result;
    const reached = wanted ? wanted.includes(ws.status) : stableStatuses.includes(ws.status);
    if (reached) return { done: true, value: ws };
    if (ws.status === 'Failed') throw new AcaciaWorkspaceFailedError(ws);
    return { done: false, state: ws };
  };
}
