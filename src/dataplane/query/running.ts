import { randomInt } from 'node:crypto';
import { DataPlaneError } from '../errors.js';
import type { GraphStore } from '../graph-store.js';
import type { Run } from './runtime.js';

/**
 * The turns of a store's queries. One query runs at a time in a data-plane process, over the
 * one traversal view it shares with the next; a REST++ run lets other requests in between its
 * statements (Run.pause), so reads and upserts go on while it runs, but another query, a GSQL
 * request or a schema change waits for its turn here, in arrival order. A GSQL request holds
 * its turn for all its statements, so a schema change never happens under a running query.
 *
 * Every query request is listed from its arrival (`/showprocesslist`) and can be stopped
 * (`/abortquery`): one waiting leaves the line, one running stops at its next deadline check.
 */

/** How many requests may wait for their turn at once; more are refused rather than queued without bound. */
export const MAX_WAITING = 64;

export interface QueryRequest {
  requestid: string;
  graph: string;
  /** The endpoint, as REST++ lists it: `/query/{graph}/{name}`. */
  url: string;
  /** When it arrived (epoch ms). */
  started: number;
  timeoutMs: number;
  /** Once it runs. */
  run?: Run;
  /** Why it was stopped, once it was: the run takes it at its next check, whenever it starts. */
  stopReason?: string;
  /** While it waits: takes it out of the line, its request refused with `reason`. */
  cancel?: (reason: string) => void;
}

/** A request id as REST++ gives one, its first number random rather than a counter: one id tells nothing of another. */
export const newRequestId = (now = Date.now()) => `${randomInt(2 ** 47)}.RESTPP_1_1.${now}.N`;

class Turns {
  private busy = false;
  private readonly waiting: { admit: () => void }[] = [];
  readonly requests = new Map<string, QueryRequest>();

  /** Runs `work` in its turn, waiting at most `timeoutMs` for it. */
  async take<T>(timeoutMs: number, work: () => T | Promise<T>, request?: QueryRequest): Promise<T> {
    await this.enter(timeoutMs, request);
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  private enter(timeoutMs: number, request: QueryRequest | undefined): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    if (this.waiting.length >= MAX_WAITING)
      throw new DataPlaneError('queriesBusy', `${MAX_WAITING} requests already wait for a query to finish.`);
    return new Promise((admitted, refused) => {
      const waiter = {
        admit: () => {
          clearTimeout(timer);
          if (request) request.cancel = undefined;
          admitted();
        },
      };
      const out = (err: DataPlaneError) => {
        clearTimeout(timer);
        if (request) request.cancel = undefined;
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        refused(err);
      };
      const timer = setTimeout(
        () =>
          out(
            new DataPlaneError(
              'queryTimeout',
              `The request waited ${timeoutMs} ms, its timeout, for the running query to finish.`,
            ),
          ),
        timeoutMs,
      );
      if (request) request.cancel = (reason) => out(new DataPlaneError('queryAborted', reason));
      this.waiting.push(waiter);
    });
  }

  private leave(): void {
    const next = this.waiting.shift();
    if (next) next.admit();
    else this.busy = false;
  }
}

const turnsByStore = new WeakMap<GraphStore, Turns>();

function turnsOf(store: GraphStore): Turns {
  let turns = turnsByStore.get(store);
  if (!turns) turnsByStore.set(store, (turns = new Turns()));
  return turns;
}

/** Runs `work` (GSQL statements, a schema change) when no query runs, waiting at most `timeoutMs` for that. */
export function exclusively<T>(store: GraphStore, timeoutMs: number, work: () => T): Promise<T> {
  return turnsOf(store).take(timeoutMs, work);
}

/**
 * Runs a query request in its turn, listed while it waits and runs. `start` begins the run and
 * hands it over (`onRun`) before it answers, so that an abort reaches it.
 */
export async function runListed<T>(
  store: GraphStore,
  request: Omit<QueryRequest, 'run' | 'cancel' | 'stopReason'>,
  start: (onRun: (run: Run) => void) => T | Promise<T>,
): Promise<T> {
  const turns = turnsOf(store);
  const listed: QueryRequest = { ...request };
  turns.requests.set(listed.requestid, listed);
  try {
    return await turns.take(
      listed.timeoutMs,
      () =>
        start((run) => {
          listed.run = run;
          run.stopReason ??= listed.stopReason;
        }),
      listed,
    );
  } finally {
    turns.requests.delete(listed.requestid);
  }
}

/** The query requests of a graph that wait or run, oldest first. */
export function listedRequests(store: GraphStore, graph: string): QueryRequest[] {
  return [...turnsOf(store).requests.values()].filter((r) => r.graph === graph);
}

/**
 * Stops the requests of a graph that `matches`: a running one at its next deadline check (within
 * a slice of its run), a waiting one at once. Answers those it stopped.
 */
export function stopRequests(store: GraphStore, graph: string, matches: (r: QueryRequest) => boolean): QueryRequest[] {
  const stopped = listedRequests(store, graph).filter(matches);
  const reason = 'The query was aborted (abortquery).';
  for (const r of stopped) {
    r.stopReason ??= reason;
    if (r.run) r.run.stopReason ??= reason;
    else r.cancel?.(reason);
  }
  return stopped;
}
