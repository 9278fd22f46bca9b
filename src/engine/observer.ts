import type { AnyKind } from './kinds/index.js';

/** What the engine tells whoever watches it (the metrics): each call cheap, none may throw. */
export interface EngineObserver {
  /** One pass over everything due took this long (real time, whatever the clock). */
  tickFinished(seconds: number): void;
  /** An operation ended for good: succeeded, or failed after its last attempt. */
  operationFinished(kind: string, outcome: 'succeeded' | 'failed'): void;
  /** A schedule fired: its action started, or it was skipped (and why is in its last run). */
  scheduleRun(schedule: 'workspace' | 'backup', outcome: 'started' | 'skipped'): void;
}

/**
 * The kinds, each telling the observer when the worker records its operation's end. They are
 * called in the transaction that records it, so a commit that then fails (the store lost
 * mid-commit) is counted although the operation is retried: rare, and only a count.
 */
export function observeKinds(kinds: Map<string, AnyKind>, observer: EngineObserver | undefined): Map<string, AnyKind> {
  if (!observer) return kinds;
  const observed = new Map<string, AnyKind>();
  for (const [name, kind] of kinds) {
    observed.set(name, {
      ...kind,
      run: (op, ctx) => kind.run(op, ctx),
      complete: async (trx, op, outcome, now) => {
        await kind.complete(trx, op, outcome, now);
        observer.operationFinished(op.kind, 'succeeded');
      },
      fail: async (trx, op, params, message, now) => {
        await kind.fail(trx, op, params, message, now);
        observer.operationFinished(op.kind, 'failed');
      },
    });
  }
  return observed;
}
