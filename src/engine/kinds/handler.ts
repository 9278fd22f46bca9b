import type { Executor, Store } from '../../store/store.js';
import type { Operation } from '../../store/repositories/operations.js';
import type { Catalog } from '../../domain/catalog.js';
import type { ProvisionerDriver, StepResult } from '../driver.js';

/** What the engine knows of one operation kind. */
export interface OperationHandler {
  readonly kind: string;
  /** One idempotent step; throws on a failure worth retrying. */
  run(op: Operation, now: number): Promise<StepResult>;
  /** Applies the finished operation's effect, in the transaction that marks it succeeded. */
  complete(trx: Executor, op: Operation, step: Extract<StepResult, { kind: 'done' }>, now: number): Promise<void>;
  /** Records the final failure on the resource, in the transaction that marks it failed. */
  fail(trx: Executor, op: Operation, message: string, now: number): Promise<void>;
}

export interface HandlerDeps {
  store: Store;
  driver: ProvisionerDriver;
  /** Tier limits (automatic backups kept). */
  catalog: Catalog;
}
