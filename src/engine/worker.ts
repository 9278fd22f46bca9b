import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';
import { components } from '../schemas/component.js';
import type { Store } from '../store/store.js';
import {
  claimDueOperations,
  endLeasedOperation,
  rescheduleLeasedOperation,
  type Operation,
} from '../store/repositories/operations.js';
import type { Clock } from '../domain/clock.js';
import type { AnyKind } from './kinds/index.js';

export interface WorkerOptions {
  owner: string;
  leaseMs: number;
  batch: number;
  /** Delay before retry number `attempt` (1-based), after a step threw. */
  backoffMs: (attempt: number) => number;
}

/**
 * Claims due operations under a lease and runs one step of each. A crashed worker's lease
 * expires and any worker reclaims the operation; every state change is conditional on
 * still holding the lease, so a step's outcome is recorded once.
 */
export class Worker {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly kinds: Map<string, AnyKind>,
    private readonly logger: Logger,
    private readonly options: WorkerOptions,
    /** Aborted when the engine stops: steps in flight are told, and what they leave is given back. */
    private readonly stopping: AbortSignal = new AbortController().signal,
  ) {}

  /** Runs what is due now; returns how many operations it claimed. */
  async tick(): Promise<number> {
    if (this.stopping.aborted) return 0;
    const { owner, leaseMs, batch } = this.options;
    const claimed = await this.store.transaction((trx) =>
      claimDueOperations(trx.db, owner, this.clock.now(), leaseMs, batch),
    );
    for (const op of claimed) {
      try {
        await this.runOne(op);
      } catch (err) {
        // Not even the failure could be recorded (the store is failing): the lease expires
        // and the operation is retried; the rest of the batch still runs.
        this.logger.error({ err, operation: op.id, kind: op.kind }, 'operation step could not be recorded');
      }
    }
    return claimed.length;
  }

  private async runOne(op: Operation): Promise<void> {
    const kind = this.kinds.get(op.kind);
    if (!kind) return this.finish(op, undefined, undefined, `no operation kind ${op.kind} in this version`, true);
    const misfit = paramsMisfit(kind, op.params);
    // A row written by another version or by hand: running it on a guess could do harm.
    if (misfit)
      return this.finish(op, kind, undefined, `the operation's parameters do not fit ${op.kind} (${misfit})`, true);
    const params = op.params;
    let outcome;
    const step = this.stepSignal();
    try {
      outcome = await kind.run(op, { now: this.clock.now(), signal: step.signal });
    } catch (err) {
      if (this.stopping.aborted) return this.giveBack(op);
      return this.finish(op, kind, params, (err as Error).message, op.attempt >= op.max_attempts);
    } finally {
      step.dispose();
    }
    const now = this.clock.now();
    if (outcome.kind === 'wait') {
      // Waiting on infrastructure is not a failed attempt.
      await rescheduleLeasedOperation(
        this.store.db,
        op.id,
        this.options.owner,
        { attempt: op.attempt - 1, run_at: outcome.until, progress: outcome.progress },
        now,
      );
      return;
    }
    if (outcome.kind === 'failed') return this.finish(op, kind, params, outcome.reason, true);
    try {
      await this.store.transaction(async (trx) => {
        if (
          !(await endLeasedOperation(
            trx,
            op.id,
            this.options.owner,
            'succeeded',
            { error: null, finished_at: now },
            now,
          ))
        )
          return;
        await kind.complete(trx, op, outcome.observed, now);
      });
    } catch (err) {
      // Applying the effect failed and rolled back: a failed attempt like any other.
      return this.finish(op, kind, params, (err as Error).message, op.attempt >= op.max_attempts);
    }
    this.logger.info({ operation: op.id, kind: op.kind, resource: op.resource_id }, 'operation succeeded');
  }

  /**
   * The signal of one step: aborted when the engine stops, or when the step has run as long
   * as the lease, after which another process may have taken the operation over.
   */
  private stepSignal(): { signal: AbortSignal; dispose(): void } {
    const controller = new AbortController();
    const onStop = () => controller.abort(new Error('the engine is stopping'));
    this.stopping.addEventListener('abort', onStop, { once: true });
    const timer = setTimeout(
      () => controller.abort(new Error('the lease on the operation ran out')),
      this.options.leaseMs,
    );
    return {
      signal: controller.signal,
      dispose: () => {
        clearTimeout(timer);
        this.stopping.removeEventListener('abort', onStop);
      },
    };
  }

  /** A step cut short by the engine stopping: due again at once, and the attempt not counted. */
  private async giveBack(op: Operation): Promise<void> {
    const now = this.clock.now();
    await rescheduleLeasedOperation(
      this.store.db,
      op.id,
      this.options.owner,
      { attempt: op.attempt - 1, run_at: now },
      now,
    );
    this.logger.info({ operation: op.id, kind: op.kind }, 'operation step stopped with the engine; it runs again');
  }

  /** Schedules a retry, or records the final failure when attempts are used up or the failure is terminal. */
  private async finish(
    op: Operation,
    kind: AnyKind | undefined,
    params: unknown,
    message: string,
    final: boolean,
  ): Promise<void> {
    const now = this.clock.now();
    if (!final) {
      await rescheduleLeasedOperation(
        this.store.db,
        op.id,
        this.options.owner,
        { run_at: now + this.options.backoffMs(op.attempt), error: message },
        now,
      );
      this.logger.warn(
        { operation: op.id, kind: op.kind, attempt: op.attempt, error: message },
        'operation step failed; will retry',
      );
      return;
    }
    await this.store.transaction(async (trx) => {
      if (
        !(await endLeasedOperation(trx, op.id, this.options.owner, 'failed', { error: message, finished_at: now }, now))
      )
        return;
      await kind?.fail(trx, op, params, message, now);
    });
    this.logger.error({ operation: op.id, kind: op.kind, error: message }, 'operation failed');
  }
}

/** Where stored parameters do not fit the kind's schema, or undefined when they do. */
function paramsMisfit(kind: AnyKind, params: unknown): string | undefined {
  try {
    // Parameters may use the API's named schemas (a node group config, say): resolve them.
    const references = [...components().values()];
    if (Value.Check(kind.params, references, params)) return undefined;
    const first = Value.Errors(kind.params, references, params).First();
    return first ? `${first.path || '/'}: ${first.message}` : 'they do not match';
  } catch (err) {
    return `the schema cannot check them: ${(err as Error).message}`;
  }
}
