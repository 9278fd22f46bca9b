import { Type, type Static, type TLiteral, type TObject, type TProperties, type TUnsafe } from '@sinclair/typebox';
import type { WorkspaceStatus } from '../../schemas/vocabulary.js';
import type { Workspace, WorkspaceChanges } from '../../store/repositories/workspaces.js';
import type { Executor, Tx } from '../../store/store.js';

/**
 * One workspace operation kind, declared once in its own module of this folder and listed in
 * `index.ts`: the domain starts it from this declaration (`beginWorkspaceOperation`) and the
 * engine runs it from the same (src/engine/kinds/workspace-runner.ts); nothing else knows a
 * kind. The operation's stored `kind` is `workspace.<op>`.
 */
export interface WorkspaceOperationKind<
  Op extends string = string,
  S extends TObject = TObject,
  A extends string = string,
> {
  /** The kind's name: `op` in its parameters, `workspace.<op>` as the operation's kind. */
  readonly op: Op;
  /**
   * The parameters it is stored with: what was asked, kept for the record and for a retry.
   * The engine checks a claimed operation's row against them before running it; unknown
   * fields are refused, so a row from another version or a hand edit fails clearly.
   */
  readonly params: S;
  /** The statuses it may start from, the status and condition while it runs. */
  readonly transition: Transition;
  /**
   * The driver actions it may run, each with how long the simulated driver takes for it
   * (seconds at ACACIA_SIM_SPEED=1). Fault directives (`fail:<action>`, `slow:<action>=…`)
   * name these.
   */
  readonly steps: Readonly<Record<A, number>>;
  /** The actions of one operation; all of `steps` when absent. */
  actions?(params: Static<S>): readonly A[];
  /**
   * What starting it asks of the workspace besides its status: its desired state (spec
   * fields), and status that shows the operation started. Derived from the parameters, so a
   * retry asks the same again. A driver sees the workspace's spec and status only.
   */
  requests?(params: Static<S>): WorkspaceChanges;
  /** The stable status it ends in; Active when absent. */
  settles?(ws: Workspace): WorkspaceStatus;
  /**
   * Changes on completion beyond the driver's observed state (`observed`, as the columns it
   * writes) and the stable status; `ws` is the workspace before either.
   */
  completed?(
    trx: Executor,
    ws: Workspace,
    params: Static<S>,
    observed: WorkspaceChanges,
    now: number,
  ): WorkspaceChanges | Promise<WorkspaceChanges>;
  /**
   * The stable status a final failure leaves the workspace in, for a kind that changes nothing
   * the workspace runs until it succeeds; Failed (and resume retries it) when absent.
   */
  readonly failsTo?: WorkspaceStatus;
  /** Changes on failure beyond the status, the driver's message and nothing asked any longer. */
  failed?(params: Static<S>, message: string): WorkspaceChanges;
  /** Replaces the whole completion (delete removes the row). */
  complete?(trx: Tx, workspaceId: string): Promise<void>;
}

export interface Transition {
  /** States the operation may start from. */
  from: readonly WorkspaceStatus[];
  /** Status while it runs. */
  via: WorkspaceStatus;
  /** `condition_type` while it runs. */
  condition: string;
  /** What the caller is doing, for error messages. */
  verb: string;
}

/** Declares a kind, its types inferred from the declaration. */
export const workspaceOperationKind = <Op extends string, S extends TObject, const A extends string>(
  kind: WorkspaceOperationKind<Op, S, A>,
): WorkspaceOperationKind<Op, S, A> => kind;

/** A kind's parameters: `op` and the kind's own, nothing else. */
export const paramsOf = <Op extends string, P extends TProperties = Record<never, never>>(
  op: Op,
  properties: P = {} as P,
): TObject<{ op: TLiteral<Op> } & P> =>
  Type.Object({ op: Type.Literal(op), ...properties }, { additionalProperties: false });

/** Why the engine, not a request, started it: auto-stop, gateway, schedule, maintenance, observe. */
export const started = {
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  schedule_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
};

/** One of a closed set of strings, as a union of literals: TypeBox's own checker knows it (StringEnum is for Ajv). */
export function OneOf<const T extends readonly string[]>(values: T): TUnsafe<T[number]> {
  return Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnsafe<T[number]>;
}
