import type { GraphStore } from '../graph-store.js';
import type { Acc } from './accums.js';
import type { GraphView } from './graph-view.js';

/** A query that ran past its deadline; every loop of compiled code checks it. */
export class QueryTimeoutError extends Error {}

/** A vertex-attached accumulator: one accumulator per vertex, made at its first use. */
export class VertexAccs {
  /** Filled to the number of vertices up front: a packed array, not a sparse one that V8 keeps as a dictionary. */
  readonly arr: (Acc | undefined)[];
  /** Values before the current SELECT block changed them, for `@acc'`; null when the query never reads them. */
  prev: Map<number, unknown> | null = null;
  readonly defaultValue: unknown;
  constructor(
    readonly name: string,
    readonly make: () => Acc,
    /** Collections are read through their accumulator (methods change them); scalars by value. */
    readonly collection: boolean,
    primed: boolean,
    size: number,
  ) {
    this.arr = new Array<Acc | undefined>(size).fill(undefined);
    this.defaultValue = make().value();
    if (primed) this.prev = new Map();
  }
  acc(gid: number): Acc {
    return (this.arr[gid] ??= this.make());
  }
  get(gid: number): unknown {
    const a = this.arr[gid];
    if (a) return a.value();
    return this.collection ? this.acc(gid).value() : this.defaultValue;
  }
  private remember(gid: number): void {
    if (this.prev && !this.prev.has(gid)) this.prev.set(gid, this.get(gid));
  }
  add(gid: number, x: unknown): void {
    this.remember(gid);
    this.acc(gid).add(x);
  }
  set(gid: number, x: unknown): void {
    this.remember(gid);
    this.acc(gid).set(x);
  }
  previous(gid: number): unknown {
    return this.prev?.has(gid) ? this.prev.get(gid) : this.get(gid);
  }
}

/** Writes a query makes, applied to the store in one transaction when it ends. */
export interface PendingWrites {
  vertexAttrs: Map<number, Map<string, unknown>>;
  edgeAttrs: Map<number, Map<string, unknown>>;
  /** Structural changes (INSERT/DELETE) run inside the same transaction. */
  structural: ((store: GraphStore) => void)[];
}

/** The state of one query run: its deadline, accumulators, output and writes. */
export class Run {
  ticks = 0;
  readonly results: Record<string, unknown>[] = [];
  printedBytes = 0;
  returned: unknown = undefined;
  /**
   * `+=` of the current clause held back until it ends (the clause also reads their accumulators):
   * accumulator index, vertex (-1: a global accumulator) and value, in parallel arrays.
   */
  pIdx: number[] = [];
  pGid: number[] = [];
  pVal: unknown[] = [];
  writes: PendingWrites = { vertexAttrs: new Map(), edgeAttrs: new Map(), structural: [] };
  constructor(
    readonly store: GraphStore,
    readonly view: GraphView,
    readonly deadline: number,
    readonly timeoutMs: number,
    readonly outputLimit: number,
    /** Runs another query (a call from a query), sharing this run's deadline. */
    readonly callQuery: (name: string, args: unknown[], run: Run) => unknown,
    /** The folder FILE objects may write in. */
    readonly fileRoot: string | undefined,
  ) {}

  /** Called in every loop: past the deadline, the query stops. */
  tick(): void {
    if ((++this.ticks & 1023) === 0 && performance.now() > this.deadline)
      throw new QueryTimeoutError(`The query did not finish within its timeout of ${this.timeoutMs} ms.`);
  }
}

/** The slots of one query invocation: variables, aliases and vertex sets by compiled index. */
export interface Frame {
  vars: unknown[];
  run: Run;
  g: Acc[];
  va: VertexAccs[];
}
