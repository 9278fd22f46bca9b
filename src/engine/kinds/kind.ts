import type { Static, TSchema } from '@sinclair/typebox';
import type { Catalog } from '../../domain/catalog.js';
import type { Operation } from '../../store/repositories/operations.js';
import type { Store, Tx } from '../../store/store.js';
import type { Drivers, StepContext, StepOutcome } from '../drivers/driver.js';

/** What a step of a kind gets besides its operation: the engine clock and the step's AbortSignal. */
export interface KindStepContext {
  now: number;
  signal: AbortSignal;
}

/** What the driver gets for one step of op: its id, try and kept progress, and the engine's clock and signal. */
export function stepContext(op: Operation, { now, signal }: KindStepContext, testEnv?: string | null): StepContext {
  return { operationId: op.id, attempt: op.attempt, now, progress: op.progress, signal, testEnv: testEnv ?? undefined };
}

/**
 * One operation kind as the engine runs it: the parameters it is stored with (checked when
 * the operation is claimed: an operation whose parameters do not fit fails at once,
 * unretried), one idempotent step, and how its end is written on the resource. A workspace
 * kind's runner is made from its declaration (src/domain/operation-kinds/), which also gives
 * the transitional status the domain starts it in.
 */
export interface OperationKind<S extends TSchema = TSchema, O = unknown> {
  readonly kind: string;
  readonly params: S;
  /** One step: asks the driver; throws on a failure worth retrying. */
  run(op: Operation<Static<S>>, ctx: KindStepContext): Promise<StepOutcome<O>>;
  /** Applies the finished operation's effect, in the transaction that marks it succeeded. */
  complete(trx: Tx, op: Operation<Static<S>>, observed: O, now: number): Promise<void>;
  /**
   * Records the final failure on the resource, in the transaction that marks it failed.
   * `params` is undefined when the stored parameters did not fit the schema.
   */
  fail(trx: Tx, op: Operation, params: Static<S> | undefined, message: string, now: number): Promise<void>;
}

export interface KindDeps {
  store: Store;
  drivers: Drivers;
  /** Sizes (specs) and tier limits (automatic backups kept). */
  catalog: Catalog;
}

/** A kind with its types erased, as the registry holds it (the worker checks the parameters first). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = OperationKind<TSchema, any>;
