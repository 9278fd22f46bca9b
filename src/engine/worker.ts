import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import { claimDueOperations, updateLeasedOperation, type Operation } from '../store/repositories/operations.js';
import type { Clock } from '../domain/clock.js';
import type { OperationHandler } from './kinds/index.js';

export interface WorkerOptions {
  owner: string;
  leaseMs: number;
  batch: number;
  /** Delay before retry number `attempt` (1-based). */
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
    private readonly handlers: Map<string, OperationHandler>,
    private readonly logger: Logger,
    private readonly options: WorkerOptions,
  ) {}

  /** Runs what is due now; returns how many operations it claimed. */
  async tick(): Promise<number> {
    const { owner, leaseMs, batch } = this.options;
    const claimed = await this.store.transaction((trx) =>
      claimDueOperations(trx, this.store.dialect, owner, this.clock.now(), leaseMs, batch),
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
    const handler = this.handlers.get(op.kind);
    if (!handler) return this.finish(op, `no handler for operation kind ${op.kind}`, true);
    let step;
    try {
      step = await handler.run(op, this.clock.now());
    } catch (err) {
      return this.finish(op, (err as Error).message, op.attempt >= op.max_attempts);
    }
    const now = this.clock.now();
    if (step.kind === 'wait') {
      // Waiting on infrastructure is not a failed attempt.
      await updateLeasedOperation(this.store.db, op.id, this.options.owner, { state: 'pending', attempt: op.attempt - 1, run_at: step.until, progress: step.progress }, now);
      return;
    }
    try {
      await this.store.transaction(async (trx) => {
        if (!(await updateLeasedOperation(trx, op.id, this.options.owner, { state: 'succeeded', error: null, finished_at: now }, now))) return;
        await handler.complete(trx, op, step, now);
      });
    } catch (err) {
      // Applying the effect failed and rolled back: a failed attempt like any other.
      return this.finish(op, (err as Error).message, op.attempt >= op.max_attempts);
    }
    this.logger.info({ operation: op.id, kind: op.kind, resource: op.resource_id }, 'operation succeeded');
  }

  /** Schedules a retry, or records the final failure when attempts are used up. */
  private async finish(op: Operation, message: string, final: boolean): Promise<void> {
    const now = this.clock.now();
    if (!final) {
      await updateLeasedOperation(this.store.db, op.id, this.options.owner, { state: 'pending', run_at: now + this.options.backoffMs(op.attempt), error: message }, now);
      this.logger.warn({ operation: op.id, kind: op.kind, attempt: op.attempt, error: message }, 'operation step failed; will retry');
      return;
    }
    await this.store.transaction(async (trx) => {
      if (!(await updateLeasedOperation(trx, op.id, this.options.owner, { state: 'failed', error: message, finished_at: now }, now))) return;
      await this.handlers.get(op.kind)?.fail(trx, op, message, now);
    });
    this.logger.error({ operation: op.id, kind: op.kind, error: message }, 'operation failed');
  }
}
