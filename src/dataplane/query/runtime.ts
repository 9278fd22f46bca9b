import type { GraphStore } from '../graph-store.js';
import type { AccType, TypeRef } from './ast.js';
import { Acc, accValueType, isFloat32 } from './accums.js';
import { checkHeap } from './memory-guard.js';
import { jsonOf } from './values.js';
import type { WrittenRows } from '../touched-rows.js';
import type { GraphView } from './graph-view.js';
import type { ScratchArrays } from './scratch.js';
import type { QueryFiles } from './query-files.js';

/** A query that ran past its deadline; every loop of compiled code checks it. */
export class QueryTimeoutError extends Error {}

/** A query stopped by `/abortquery`, or because the schema changed while it let other requests in. */
export class QueryAbortedError extends Error {}

/**
 * How long a run that may pause (`Run.allowPauses`) goes on before it lets other requests in: long
 * enough that pausing costs nothing measurable, short enough that a read waits no longer.
 */
const SLICE_MS = 20;

/**
 * How a vertex-attached accumulator keeps its values: scalar accumulators (numeric Sum, Min and
 * Max, Or and And) as one column of values indexed by gid, everything else as one accumulator
 * object per vertex, made at its first use.
 */
export type VertexAccKind = 'object' | 'sum' | 'min' | 'max' | 'or' | 'and';

const isNumberType = (t: TypeRef | undefined) =>
  t?.k === 'base' && (t.name === 'INT' || t.name === 'UINT' || t.name === 'FLOAT' || t.name === 'DOUBLE');

/** The column kind an accumulator type can be held in. */
export function vertexAccKind(t: AccType): VertexAccKind {
  switch (t.name) {
    case 'SumAccum':
      return isNumberType(t.elem) ? 'sum' : 'object';
    case 'MinAccum':
      return isNumberType(t.elem) ? 'min' : 'object';
    case 'MaxAccum':
      return isNumberType(t.elem) ? 'max' : 'object';
    case 'OrAccum':
      return 'or';
    case 'AndAccum':
      return 'and';
    default:
      return 'object';
  }
}

/** One vertex's accumulator of a column, for what reads an accumulator as an object (methods, printing). */
class CellAcc extends Acc {
  constructor(
    private readonly va: VertexAccs,
    private readonly gid: number,
  ) {
    super();
  }
  add(x: unknown): void {
    this.va.addRaw(this.gid, x);
  }
  set(x: unknown): void {
    this.va.setRaw(this.gid, x);
  }
  value(): unknown {
    return this.va.get(this.gid);
  }
  override json(): unknown {
    return this.va.json(this.gid);
  }
  override clear(): void {
    this.va.clearRaw(this.gid);
  }
}

/** A vertex-attached accumulator: its value for every vertex of the view. */
export class VertexAccs {
  /** Object kind: the accumulators, filled to the number of vertices up front (a packed array, not a dictionary). */
  private readonly arr: (Acc | undefined)[] | null;
  /**
   * Column kinds: each vertex's value as a number (Or and And as 1 and 0), in a typed array:
   * made in microseconds where an array of a hundred thousand values takes most of a millisecond,
   * which a short query on a large graph would pay on every run.
   */
  private readonly vals: Float64Array | null;
  /** Or and And: the column holds 1 and 0 for true and false. */
  private readonly bool: boolean;
  /** Min and Max columns: whether a vertex's accumulator was given a value (an empty one takes any first value). */
  private readonly given: Uint8Array | null;
  /** The value of a column's accumulator that holds nothing yet, as a cleared one reads (as stored). */
  private readonly empty: number;
  /** Values before the current SELECT block changed them, for `@acc'`: valid where `prevAt[gid] === epoch`. */
  private readonly prevAt: Uint32Array | null;
  /** Those values: a column's as stored (a number), an object kind's as read. */
  private readonly prevNums: Float64Array | null;
  private readonly prevVals: unknown[] | null;
  private epoch = 1;
  readonly defaultValue: unknown;
  private readonly valueType: TypeRef | undefined;
  /** A column of FLOAT values: each value stored is rounded to float32. */
  private readonly f32: boolean;

  constructor(
    readonly name: string,
    readonly kind: VertexAccKind,
    readonly make: () => Acc,
    /** Collections are read through their accumulator (methods change them); scalars by value. */
    readonly collection: boolean,
    readonly primed: boolean,
    /** Where its per-vertex arrays come from, one slot per vertex of the view. */
    private readonly scratch: ScratchArrays,
    type: AccType,
    /** A column's declared initial value (`@acc = x`), if any; an object kind's `make` sets its own. */
    init?: { value: unknown },
  ) {
    const size = scratch.size;
    this.valueType = accValueType(type);
    this.f32 = isFloat32(this.valueType);
    this.bool = kind === 'or' || kind === 'and';
    if (kind === 'object') {
      this.arr = new Array<Acc | undefined>(size).fill(undefined);
      this.vals = null;
      this.given = null;
      this.empty = 0;
      this.defaultValue = make().value();
    } else {
      this.arr = null;
      // Not rounded as FLOAT: an empty Min/Max of FLOAT holds the far end of a DOUBLE, as it reads.
      const empty = make().value();
      this.empty = this.bool ? (empty ? 1 : 0) : (empty as number);
      const start = init ? this.stored(init.value) : this.empty;
      this.vals = scratch.float64(start);
      this.given = kind === 'min' || kind === 'max' ? scratch.uint8() : null;
      if (init) this.given?.fill(1);
      this.defaultValue = this.bool ? start !== 0 : start;
    }
    this.prevAt = primed ? scratch.uint32() : null;
    this.prevNums = primed && this.vals !== null ? scratch.float64() : null;
    this.prevVals = primed && this.vals === null ? new Array<unknown>(size).fill(undefined) : null;
  }

  /** Gives the accumulator's per-vertex arrays back for later runs; it is not used again. */
  release(): void {
    const scratch = this.scratch;
    if (this.vals !== null) scratch.giveFloat64(this.vals);
    if (this.given !== null) scratch.giveUint8(this.given);
    if (this.prevAt !== null) scratch.giveUint32(this.prevAt);
    if (this.prevNums !== null) scratch.giveFloat64(this.prevNums);
    if (this.nextAt !== null) {
      scratch.giveUint32(this.nextAt);
      scratch.giveFloat64(this.nextVals!);
      if (this.nextGiven !== null) scratch.giveUint8(this.nextGiven);
      scratch.giveInt32(this.touched!);
    }
  }

  /** What `=` stores in a column: Or and And 1 or 0, FLOAT columns float32 values. */
  private stored(x: unknown): number {
    if (this.bool) return x ? 1 : 0;
    return this.f32 ? Math.fround(x as number) : (x as number);
  }

  acc(gid: number): Acc {
    const arr = this.arr;
    if (arr === null) return new CellAcc(this, gid);
    return (arr[gid] ??= this.make());
  }

  get(gid: number): unknown {
    const vals = this.vals;
    if (vals !== null) return this.bool ? vals[gid] !== 0 : vals[gid];
    const a = this.arr![gid];
    if (a) return a.value();
    return this.collection ? this.acc(gid).value() : this.defaultValue;
  }

  /** A vertex's accumulator as PRINT shows it. */
  json(gid: number): unknown {
    if (this.vals !== null) return jsonOf(this.get(gid), this.valueType);
    const a = this.arr![gid];
    return a ? a.json() : this.make().json();
  }

  /** Starts a SELECT block: `@acc'` reads values as they are from here. */
  clearPrevious(): void {
    if (this.prevAt === null) return;
    if (++this.epoch === 0xffffffff) {
      this.prevAt.fill(0);
      this.epoch = 1;
    }
  }

  private remember(gid: number): void {
    const at = this.prevAt!;
    if (at[gid] !== this.epoch) {
      at[gid] = this.epoch;
      if (this.prevNums !== null) this.prevNums[gid] = this.vals![gid]!;
      else {
        const a = this.arr![gid];
        this.prevVals![gid] = a ? a.snapshot() : this.collection ? this.make().value() : this.defaultValue;
      }
    }
  }

  add(gid: number, x: unknown): void {
    if (this.prevAt !== null) this.remember(gid);
    this.addRaw(gid, x);
  }

  set(gid: number, x: unknown): void {
    if (this.prevAt !== null) this.remember(gid);
    this.setRaw(gid, x);
  }

  previous(gid: number): unknown {
    const at = this.prevAt;
    if (at === null || at[gid] !== this.epoch) return this.get(gid);
    const nums = this.prevNums;
    if (nums === null) return this.prevVals![gid];
    return this.bool ? nums[gid] !== 0 : nums[gid];
  }

  /** `+=` without keeping the previous value, with the semantics of the accumulator's class. */
  addRaw(gid: number, x: unknown): void {
    const vals = this.vals;
    if (vals === null) {
      this.acc(gid).add(x);
      return;
    }
    this.fold(vals, this.given, gid, x);
  }

  /**
   * `+=` held back to the end of a clause, for a column: the sum so far goes into a second column
   * (started from the vertex's value at its first add in the clause) while reads still see the first.
   * The same adds in the same order as applying them one by one at the clause's end.
   */
  private nextVals: Float64Array | null = null;
  private nextGiven: Uint8Array | null = null;
  /** Which vertices have a next value in the open clause: `nextAt[gid] === nextEpoch`. */
  private nextAt: Uint32Array | null = null;
  private nextEpoch = 1;
  private touched: Int32Array | null = null;
  private nTouched = 0;

  /** Whether `+=` to this accumulator can be held back in a second column rather than queued. */
  get columnar(): boolean {
    return this.vals !== null;
  }

  /** The arrays of held-back values, made at the first clause that holds any back. */
  private nextColumns(): Uint32Array {
    let at = this.nextAt;
    if (at === null) {
      const scratch = this.scratch;
      at = this.nextAt = scratch.uint32();
      this.nextVals = scratch.float64();
      this.nextGiven = this.given === null ? null : scratch.uint8();
      this.touched = scratch.int32();
    }
    return at;
  }

  addNext(gid: number, x: unknown): void {
    const at = this.nextColumns();
    // Each vertex's next value is copied from its value at its first add in a clause.
    const next = this.nextVals!;
    if (at[gid] !== this.nextEpoch) {
      at[gid] = this.nextEpoch;
      this.touched![this.nTouched++] = gid;
      next[gid] = this.vals![gid]!;
      if (this.given !== null) this.nextGiven![gid] = this.given[gid]!;
    }
    this.fold(next, this.nextGiven, gid, x);
  }

  /**
   * `+=` held back over a whole hop that reaches a large share of the vertices: the column is
   * copied into the second one once, at the start, so that each add folds straight into it,
   * without asking whether the vertex was added to before (one random read and write less an
   * add, on a hop of millions of edges). `endWhole` takes the targets' next values; no other
   * vertex can have been added to. Returns false, with nothing begun, while adds made one by
   * one are open.
   */
  beginWhole(): boolean {
    if (this.nTouched !== 0) return false;
    this.nextColumns();
    this.nextVals!.set(this.vals!);
    if (this.given !== null) this.nextGiven!.set(this.given);
    return true;
  }

  addWhole(gid: number, x: unknown): void {
    this.fold(this.nextVals!, this.nextGiven, gid, x);
  }

  /** Ends a hop begun by `beginWhole`: `targets` are the vertices it reached (each once). */
  endWhole(targets: ArrayLike<number>): void {
    this.takeNext(targets, targets.length);
  }

  /** One `+=` into a column of values (`given` marks which hold one, for Min and Max). */
  private fold(vals: Float64Array, given: Uint8Array | null, gid: number, x: unknown): void {
    switch (this.kind) {
      case 'sum':
        vals[gid] = this.f32 ? Math.fround(vals[gid]! + (x as number)) : vals[gid]! + (x as number);
        return;
      case 'min':
      case 'max': {
        const v = this.f32 ? Math.fround(x as number) : (x as number);
        if (given![gid] === 0) {
          given![gid] = 1;
          vals[gid] = v;
          return;
        }
        if (this.kind === 'min' ? v < vals[gid]! : v > vals[gid]!) vals[gid] = v;
        return;
      }
      case 'or':
        if (x) vals[gid] = 1;
        return;
      case 'and':
        if (!x) vals[gid] = 0;
        return;
      default:
        return;
    }
  }

  /** Ends a clause: the next values become the values (keeping `@acc'` as `+=` would). */
  flushNext(): void {
    const n = this.nTouched;
    if (n === 0) return;
    this.takeNext(this.touched!, n);
    this.nTouched = 0;
    if (++this.nextEpoch === 0xffffffff) {
      this.nextAt!.fill(0);
      this.nextEpoch = 1;
    }
  }

  /** The next values of the first `n` vertices of `gids` become their values. */
  private takeNext(gids: ArrayLike<number>, n: number): void {
    const vals = this.vals!;
    const next = this.nextVals!;
    const given = this.given;
    const nextGiven = this.nextGiven;
    const remember = this.prevAt !== null;
    for (let i = 0; i < n; i++) {
      const gid = gids[i]!;
      if (remember) this.remember(gid);
      vals[gid] = next[gid]!;
      if (given !== null) given[gid] = nextGiven![gid]!;
    }
  }

  setRaw(gid: number, x: unknown): void {
    const vals = this.vals;
    if (vals === null) {
      this.acc(gid).set(x);
      return;
    }
    vals[gid] = this.stored(x);
    if (this.given !== null) this.given[gid] = 1;
  }

  clearRaw(gid: number): void {
    if (this.vals === null) {
      this.acc(gid).clear();
      return;
    }
    this.vals[gid] = this.empty;
    if (this.given !== null) this.given[gid] = 0;
  }
}

/** Writes a query makes, applied to the store in one transaction when it ends. */
export interface PendingWrites {
  vertexAttrs: Map<number, Map<string, unknown>>;
  edgeAttrs: Map<number, Map<string, unknown>>;
  /**
   * Structural changes (INSERT/DELETE) run inside the same transaction, each giving the rows it
   * touched for the view to take in (GraphView.absorb).
   */
  structural: ((store: GraphStore) => WrittenRows)[];
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
  readonly pending = new PendingAdds();
  writes: PendingWrites = { vertexAttrs: new Map(), edgeAttrs: new Map(), structural: [] };
  constructor(
    readonly store: GraphStore,
    readonly view: GraphView,
    readonly deadline: number,
    readonly timeoutMs: number,
    readonly outputLimit: number,
    /** Runs another query (a call from a query), sharing this run's deadline. */
    readonly callQuery: (name: string, args: unknown[], run: Run) => unknown,
    /** The folder FILE objects may write in, shared with the queries this one calls. */
    readonly files: QueryFiles | undefined,
  ) {}

  /**
   * Whether the run lets other requests in between its statements and loop steps (a REST++ run,
   * not one GSQL runs or a query calls): it then pauses when `pauseDue` is set, once a slice of
   * its running has passed.
   */
  private mayPause = false;
  private sliceMs = SLICE_MS;
  private sliceEnd = 0;
  /** Set when the deadline is looked at and the slice has passed; compiled statements pause on it. */
  pauseDue = false;
  /** How many times the run paused. */
  pauses = 0;
  /** Why the run must stop at its next check (an abort), if it must. */
  stopReason: string | undefined;

  /** Lets the run pause every `sliceMs` of its running (0: at every deadline check). */
  allowPauses(sliceMs = SLICE_MS): void {
    this.mayPause = true;
    this.sliceMs = sliceMs;
    this.sliceEnd = performance.now() + sliceMs;
  }

  /**
   * Lets other requests in for one turn of the event loop, then goes on. The schema must be the
   * one the query was compiled against: a change made meanwhile stops the run.
   */
  async pause(): Promise<void> {
    this.pauseDue = false;
    // A schema change moves the version; a restore loads a catalog anew.
    const { catalog } = this.store;
    const version = catalog.version;
    await new Promise((resume) => setImmediate(resume));
    if (this.store.catalog !== catalog || catalog.version !== version)
      this.stopReason ??= 'The schema or the store changed while the query ran; run it again.';
    this.pauses++;
    this.sliceEnd = performance.now() + this.sliceMs;
    // The next pause comes at a later check: the run goes on at least until then.
    this.checkStop(performance.now());
  }

  /** `tick` for n steps at once, as a loop over a vertex's edges counts them. */
  tickMany(n: number): void {
    const before = this.ticks;
    this.ticks += n;
    if (Math.floor(before / 1024) !== Math.floor(this.ticks / 1024)) this.checkDeadline();
  }

  /** Called in every loop: past the deadline, the query stops. */
  tick(): void {
    if ((++this.ticks & 1023) === 0) this.checkDeadline();
  }

  /** Looked at every 1,024 steps: reading the time (and the heap) costs more than a step. */
  private checkDeadline(): void {
    const now = performance.now();
    this.checkStop(now);
    checkHeap();
    if (this.mayPause && now >= this.sliceEnd) this.pauseDue = true;
  }

  /** An abort asked for, or the deadline passed: the run stops. */
  private checkStop(now: number): void {
    if (this.stopReason !== undefined) throw new QueryAbortedError(this.stopReason);
    if (now > this.deadline)
      throw new QueryTimeoutError(`The query did not finish within its timeout of ${this.timeoutMs} ms.`);
  }
}

/**
 * `+=` held back until their clause ends, in the order they were made: accumulator index, vertex
 * (-1: a global accumulator) and value. The arrays are kept from clause to clause and only grow.
 */
export class PendingAdds {
  n = 0;
  idx = new Int32Array(256);
  gid = new Int32Array(256);
  readonly val: unknown[] = [];

  push(index: number, gid: number, value: unknown): void {
    const n = this.n;
    if (n === this.idx.length) {
      const idx = new Int32Array(n * 2);
      idx.set(this.idx);
      this.idx = idx;
      const g = new Int32Array(n * 2);
      g.set(this.gid);
      this.gid = g;
    }
    this.idx[n] = index;
    this.gid[n] = gid;
    this.val[n] = value;
    this.n = n + 1;
  }
}

/** The slots of one query invocation: variables, aliases and vertex sets by compiled index. */
export interface Frame {
  vars: unknown[];
  run: Run;
  g: Acc[];
  va: VertexAccs[];
}
