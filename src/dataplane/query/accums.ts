import type { AccType, TypeRef } from './ast.js';
import { copying, madeString } from './memory-guard.js';
import { compare, defaultOf, eq, jsonOf, keyedApart, keyOf, QueryRuntimeError, Tuple } from './values.js';

/**
 * GSQL's accumulators. `add` is `+=`, `set` is `=`; `value()` is what an expression reads.
 * Collection accumulators hand out their own collection as their value: reading is free and
 * methods (size, contains, …) act on it directly.
 */
export abstract class Acc {
  abstract add(x: unknown): void;
  abstract set(x: unknown): void;
  abstract value(): unknown;
  json(): unknown {
    return jsonOf(this.value());
  }
  /**
   * The value as it is now, kept apart from later changes: what `@acc'` reads after the block
   * changes the accumulator. A scalar's value is already apart; a collection copies itself.
   */
  snapshot(): unknown {
    return this.value();
  }
  /** Methods every collection accumulator has; the subclasses add their own. */
  method(name: string, args: unknown[]): unknown {
    const v = this.value();
    switch (name) {
      case 'size':
        return v instanceof Map || v instanceof Set ? v.size : Array.isArray(v) ? v.length : 1;
      case 'clear':
      case 'reset':
        this.clear();
        return null;
      default:
        throw new QueryRuntimeError(`The accumulator has no method ${name}(${args.length ? '…' : ''}).`);
    }
  }
  clear(): void {
    throw new QueryRuntimeError('This accumulator cannot be cleared.');
  }
}

type Elem = TypeRef | undefined;
const isInt = (t: Elem) => t?.k === 'base' && (t.name === 'INT' || t.name === 'UINT');
/** GSQL's FLOAT is 4 bytes: a value of that type, stored or computed, is the nearest float32. */
export const isFloat32 = (t: Elem): boolean => t?.k === 'base' && t.name === 'FLOAT';

class SumAcc extends Acc {
  v: number | string;
  private readonly f32: boolean;
  constructor(
    readonly elem: Elem,
    private readonly init: number | string,
  ) {
    super();
    this.v = init;
    this.f32 = isFloat32(elem);
  }
  add(x: unknown): void {
    if (typeof this.v === 'string') this.v = madeString(this.v + (typeof x === 'string' ? x : String(x)));
    else this.v = this.f32 ? Math.fround(this.v + (x as number)) : this.v + (x as number);
  }
  set(x: unknown): void {
    this.v = this.f32 ? Math.fround(x as number) : (x as number);
  }
  value(): unknown {
    return this.v;
  }
  override json(): unknown {
    return jsonOf(this.v, this.elem);
  }
  override clear(): void {
    this.v = this.init;
  }
}

class MinMaxAcc extends Acc {
  v: unknown = undefined;
  private readonly f32: boolean;
  constructor(
    readonly elem: Elem,
    private readonly max: boolean,
  ) {
    super();
    this.f32 = isFloat32(elem);
  }
  add(x: unknown): void {
    if (this.f32) x = Math.fround(x as number);
    if (this.v === undefined || (this.max ? compare(x, this.v) > 0 : compare(x, this.v) < 0)) this.v = x;
  }
  set(x: unknown): void {
    this.v = this.f32 ? Math.fround(x as number) : x;
  }
  value(): unknown {
    if (this.v !== undefined) return this.v;
    // An empty Min/Max holds the far end of its type, so that the first `+=` always wins.
    if (this.elem?.k === 'base' && ['INT', 'UINT', 'FLOAT', 'DOUBLE'].includes(this.elem.name))
      return this.max ? (this.elem.name === 'UINT' ? 0 : -Number.MAX_VALUE) : Number.MAX_VALUE;
    return this.elem ? defaultOf(this.elem) : null;
  }
  override json(): unknown {
    return jsonOf(this.value(), this.elem);
  }
  override clear(): void {
    this.v = undefined;
  }
}

class AvgAcc extends Acc {
  sum = 0;
  n = 0;
  add(x: unknown): void {
    this.sum += x as number;
    this.n++;
  }
  set(x: unknown): void {
    this.sum = x as number;
    this.n = 1;
  }
  value(): unknown {
    return this.n ? this.sum / this.n : 0;
  }
  override clear(): void {
    this.sum = this.n = 0;
  }
}

class BoolAcc extends Acc {
  v: boolean;
  constructor(private readonly and: boolean) {
    super();
    this.v = and;
  }
  add(x: unknown): void {
    this.v = this.and ? this.v && !!x : this.v || !!x;
  }
  set(x: unknown): void {
    this.v = !!x;
  }
  value(): unknown {
    return this.v;
  }
  override clear(): void {
    this.v = this.and;
  }
}

const ALL_BITS = (1n << 64n) - 1n;

/** A value as the 64 bits a bitwise accumulator works on. */
const bits64 = (x: unknown): bigint =>
  x instanceof BitAcc ? x.v : BigInt.asUintN(64, typeof x === 'bigint' ? x : BigInt(Math.trunc(Number(x))));

/**
 * BitwiseAndAccum / BitwiseOrAccum: 64 bits, kept as a BigInt (JavaScript's `&` and `|` on
 * numbers keep only 32). Read as the signed INT they hold; printed as the bits.
 */
class BitAcc extends Acc {
  v: bigint;
  constructor(private readonly and: boolean) {
    super();
    this.v = and ? ALL_BITS : 0n;
  }
  add(x: unknown): void {
    this.v = this.and ? this.v & bits64(x) : this.v | bits64(x);
  }
  set(x: unknown): void {
    this.v = bits64(x);
  }
  value(): unknown {
    return Number(BigInt.asIntN(64, this.v));
  }
  /** Printed as its 64 bits, most significant first, as TigerGraph shows a bitwise accumulator. */
  override json(): unknown {
    return this.v.toString(2).padStart(64, '0');
  }
  override clear(): void {
    this.v = 0n;
  }
  /** TigerGraph's methods: bit `i` counts from the least significant, 0 to 63. */
  override method(name: string, args: unknown[]): unknown {
    const bit = (i: unknown): bigint => {
      const n = Number(i);
      if (!Number.isInteger(n) || n < 0 || n > 63)
        throw new QueryRuntimeError(`Bit index ${String(i)} is not 0 to 63.`);
      return 1n << BigInt(n);
    };
    switch (name) {
      case 'reset':
        this.v = 0n;
        return null;
      case 'cardinality':
        return [...this.v.toString(2)].filter((c) => c === '1').length;
      case 'get':
        return this.v & bit(args[0]) ? 1 : 0;
      case 'set':
        if (args.length === 0) this.v = ALL_BITS;
        else this.v = args[1] ? this.v | bit(args[0]) : this.v & ~bit(args[0]) & ALL_BITS;
        return null;
      case 'flip': {
        // One bit, or bits from the first index up to (not including) the second.
        const from = Number(args[0]);
        const to = args.length > 1 ? Number(args[1]) : from + 1;
        for (let i = from; i < to; i++) this.v ^= bit(i);
        return null;
      }
      case 'and':
      case 'or':
      case 'xor': {
        const o = bits64(args[0]);
        this.v = name === 'and' ? this.v & o : name === 'or' ? this.v | o : this.v ^ o;
        return null;
      }
      default:
        return super.method(name, args);
    }
  }
}
/** Elements of a `+=`: a collection adds each element, anything else adds itself. */
function elements(x: unknown): Iterable<unknown> {
  if (Array.isArray(x)) {
    copying(x.length);
    return x;
  }
  if (x instanceof Set) {
    copying(x.size);
    return x;
  }
  if (x instanceof Acc) {
    const inner = x.value();
    return inner === x ? [x] : elements(inner);
  }
  return [x];
}

/** What LIST and BAG accumulators share: the elements in the order they were added. */
class SequenceAcc extends Acc {
  v: unknown[] = [];
  constructor(readonly elem: Elem) {
    super();
  }
  add(x: unknown): void {
    const added = elements(x);
    // `@@list += @@list` adds the elements it had: walking the list while it grows would not end.
    for (const e of added === this.v ? [...added] : added) this.v.push(e);
  }
  set(x: unknown): void {
    this.v = [...elements(x)];
  }
  value(): unknown {
    return this.v;
  }
  override snapshot(): unknown {
    return [...this.v];
  }
  override clear(): void {
    this.v = [];
  }
  override method(name: string, args: unknown[]): unknown {
    switch (name) {
      case 'contains':
        return this.v.some((e) => eq(e, args[0]));
      case 'removeAll':
        this.v = this.v.filter((e) => !eq(e, args[0]));
        return null;
      default:
        return super.method(name, args);
    }
  }
}

class ListAcc extends SequenceAcc {
  override json(): unknown {
    return jsonOf(this.v, this.elem && { k: 'coll', name: 'LIST', elem: this.elem });
  }
  override method(name: string, args: unknown[]): unknown {
    switch (name) {
      case 'get': {
        const i = args[0] as number;
        if (i < 0 || i >= this.v.length) throw new QueryRuntimeError(`List index ${i} is out of range.`);
        return this.v[i];
      }
      case 'update':
        this.v[args[0] as number] = args[1];
        return null;
      case 'remove':
        this.v.splice(args[0] as number, 1);
        return null;
      default:
        return super.method(name, args);
    }
  }
}

/**
 * SET values keep one entry per key (tuples by content): the set itself for values that are
 * their own key, and a Map from key to element beside it for tuples and edges.
 */
class SetAcc extends Acc {
  v = new Set<unknown>();
  private readonly byKey = new Map<unknown, unknown>();
  constructor(readonly elem: Elem) {
    super();
  }
  add(x: unknown): void {
    if (Array.isArray(x) || x instanceof Set || x instanceof Acc) for (const e of elements(x)) this.addOne(e);
    else this.addOne(x);
  }
  private addOne(e: unknown): void {
    if (!keyedApart(e)) {
      this.v.add(e);
      return;
    }
    const k = keyOf(e);
    if (!this.byKey.has(k)) {
      this.byKey.set(k, e);
      this.v.add(e);
    }
  }
  remove(x: unknown): void {
    for (const e of elements(x)) {
      if (!keyedApart(e)) {
        this.v.delete(e);
        continue;
      }
      const k = keyOf(e);
      if (this.byKey.has(k)) {
        this.v.delete(this.byKey.get(k));
        this.byKey.delete(k);
      }
    }
  }
  set(x: unknown): void {
    this.clear();
    this.add(x);
  }
  value(): unknown {
    return this.v;
  }
  override json(): unknown {
    return jsonOf(this.v, this.elem && { k: 'coll', name: 'SET', elem: this.elem });
  }
  override snapshot(): unknown {
    const copy = new SetAcc(this.elem);
    copy.add(this);
    return copy.v;
  }
  override clear(): void {
    this.v = new Set();
    this.byKey.clear();
  }
  override method(name: string, args: unknown[]): unknown {
    switch (name) {
      case 'contains':
        return keyedApart(args[0]) ? this.byKey.has(keyOf(args[0])) : this.v.has(args[0]);
      case 'remove':
        this.remove(args[0]);
        return null;
      default:
        return super.method(name, args);
    }
  }
}

/** A bag: a list whose `remove` takes a value, not an index. */
class BagAcc extends SequenceAcc {
  override method(name: string, args: unknown[]): unknown {
    if (name !== 'remove') return super.method(name, args);
    const i = this.v.findIndex((e) => eq(e, args[0]));
    if (i >= 0) this.v.splice(i, 1);
    return null;
  }
}

/** A `(k -> v)` pair, and `(k1, k2 -> v1, v2)` for GroupByAccum. */
export class Arrow {
  constructor(
    readonly keys: unknown[],
    readonly vals: unknown[],
  ) {}
}

class MapAcc extends Acc {
  /** Key → value accumulator; the map's own keys as given (vertices, strings, …). */
  private readonly entries = new Map<unknown, { key: unknown; acc: Acc }>();
  constructor(
    private readonly keyType: Elem,
    private readonly newValue: () => Acc,
  ) {
    super();
  }
  add(x: unknown): void {
    if (x instanceof MapAcc) {
      // An entry is a key, a value and an accumulator of its own: several elements' worth.
      copying(x.entries.size * 8);
      for (const { key, acc } of x.entries.values()) this.entry(key).add(acc.value());
      return;
    }
    if (x instanceof Map) {
      copying(x.size * 8);
      for (const [k, v] of x) this.entry(k).add(v);
      return;
    }
    if (!(x instanceof Arrow)) throw new QueryRuntimeError('A MapAccum takes (key -> value) pairs.');
    this.entry(x.keys[0]).add(x.vals[0]);
  }
  private entry(key: unknown): Acc {
    const k = keyOf(key);
    let e = this.entries.get(k);
    if (!e) this.entries.set(k, (e = { key, acc: this.newValue() }));
    return e.acc;
  }
  set(x: unknown): void {
    this.clear();
    if (x !== null && x !== undefined) this.add(x);
  }
  value(): unknown {
    return this;
  }
  override snapshot(): unknown {
    const copy = new MapAcc(this.keyType, this.newValue);
    for (const { key, acc } of this.entries.values()) copy.entry(key).add(acc.snapshot());
    return copy;
  }
  override clear(): void {
    this.entries.clear();
  }
  get(key: unknown): unknown {
    const e = this.entries.get(keyOf(key));
    return e ? e.acc.value() : this.newValue().value();
  }
  *[Symbol.iterator](): Iterator<[unknown, unknown]> {
    for (const { key, acc } of this.entries.values()) yield [key, acc.value()];
  }
  override json(): unknown {
    const out: Record<string, unknown> = {};
    for (const { key, acc } of this.entries.values()) out[String(jsonOf(key, this.keyType))] = acc.json();
    return out;
  }
  override method(name: string, args: unknown[]): unknown {
    switch (name) {
      case 'size':
        return this.entries.size;
      case 'get':
        return this.get(args[0]);
      case 'containsKey':
        return this.entries.has(keyOf(args[0]));
      case 'remove':
        this.entries.delete(keyOf(args[0]));
        return null;
      default:
        return super.method(name, args);
    }
  }
}

/** A map value of a base type is replaced by `+=` unless it is a number or string, which add up. */
class ValueAcc extends Acc {
  v: unknown;
  constructor(private readonly type: TypeRef) {
    super();
    this.v = defaultOf(type);
  }
  add(x: unknown): void {
    if (typeof this.v === 'number' && typeof x === 'number') this.v += x;
    else if (typeof this.v === 'string' && typeof x === 'string') this.v += x;
    else this.v = x;
  }
  set(x: unknown): void {
    this.v = x;
  }
  value(): unknown {
    return this.v;
  }
  override json(): unknown {
    return jsonOf(this.v, this.type);
  }
}

class HeapAcc extends Acc {
  v: Tuple[] = [];
  constructor(
    private capacity: number,
    private readonly keys: { field: string; desc: boolean }[],
  ) {
    super();
  }
  private order = (a: Tuple, b: Tuple): number => {
    for (const { field, desc } of this.keys) {
      const c = compare(a.fields[field], b.fields[field]);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  };
  add(x: unknown): void {
    for (const e of x instanceof HeapAcc ? x.v : elements(x)) {
      if (!(e instanceof Tuple)) throw new QueryRuntimeError('A HeapAccum takes tuples.');
      // Kept sorted: a binary search for the place, then the tail past capacity is dropped.
      let lo = 0;
      let hi = this.v.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.order(this.v[mid]!, e) <= 0) lo = mid + 1;
        else hi = mid;
      }
      if (lo >= this.capacity) continue;
      this.v.splice(lo, 0, e);
      if (this.v.length > this.capacity) this.v.length = this.capacity;
    }
  }
  set(x: unknown): void {
    this.v = [];
    this.add(x);
  }
  override snapshot(): unknown {
    return [...this.v];
  }
  value(): unknown {
    return this.v;
  }
  override clear(): void {
    this.v = [];
  }
  override method(name: string, args: unknown[]): unknown {
    switch (name) {
      case 'top':
        return this.v[0] ?? null;
      case 'pop':
        return this.v.shift() ?? null;
      case 'resize':
        this.capacity = args[0] as number;
        if (this.v.length > this.capacity) this.v.length = this.capacity;
        return null;
      default:
        return super.method(name, args);
    }
  }
}

class GroupByAcc extends Acc {
  private readonly groups = new Map<string, { keys: unknown[]; accs: Acc[] }>();
  constructor(
    private readonly keyNames: string[],
    private readonly accNames: string[],
    private readonly newAccs: (() => Acc)[],
  ) {
    super();
  }
  add(x: unknown): void {
    if (!(x instanceof Arrow)) throw new QueryRuntimeError('A GroupByAccum takes (keys -> values).');
    const k = JSON.stringify(x.keys.map((v) => keyOf(v) as unknown).map((v) => jsonOf(v)));
    let g = this.groups.get(k);
    if (!g) this.groups.set(k, (g = { keys: x.keys, accs: this.newAccs.map((f) => f()) }));
    x.vals.forEach((v, i) => g.accs[i]!.add(v));
  }
  set(x: unknown): void {
    this.clear();
    this.add(x);
  }
  value(): unknown {
    return this;
  }
  override snapshot(): unknown {
    const copy = new GroupByAcc(this.keyNames, this.accNames, this.newAccs);
    for (const [k, g] of this.groups)
      copy.groups.set(k, {
        keys: g.keys,
        accs: g.accs.map((a, i) => {
          const c = this.newAccs[i]!();
          c.add(a.snapshot());
          return c;
        }),
      });
    return copy;
  }
  override clear(): void {
    this.groups.clear();
  }
  override json(): unknown {
    return [...this.groups.values()].map((g) => {
      const out: Record<string, unknown> = {};
      this.keyNames.forEach((n, i) => (out[n] = jsonOf(g.keys[i])));
      this.accNames.forEach((n, i) => (out[n] = g.accs[i]!.json()));
      return out;
    });
  }
  override method(name: string, args: unknown[]): unknown {
    if (name === 'size') return this.groups.size;
    if (name === 'containsKey') return this.groups.has(JSON.stringify(args.map((v) => jsonOf(v))));
    return super.method(name, args);
  }
}

/** `@@a[i][j] += x` (or `= x`) as one value: which element, and what it takes. See ArrayAcc. */
export class ArrayElement {
  constructor(
    readonly at: number[],
    readonly value: unknown,
  ) {}
}

/** The most elements one ArrayAccum holds: a clear error, rather than a process out of memory. */
export const ARRAY_ACCUM_MAX_ELEMENTS = 1 << 20;

/**
 * GSQL's ArrayAccum: an array of accumulators of one type in any number of dimensions, kept flat
 * in row-major order. `+=` and `=` of an `ArrayElement` act on that element, so that an element's
 * `+=` can wait in the same queue as a whole accumulator's; of another array, on the whole array.
 */
export class ArrayAcc extends Acc {
  private dims: number[];
  private cells: Acc[];
  constructor(
    dims: number[],
    private readonly newElem: () => Acc,
  ) {
    super();
    this.dims = dims;
    this.cells = this.fresh(dims);
  }
  private fresh(dims: number[]): Acc[] {
    const n = dims.reduce((a, b) => a * b, 1);
    if (n > ARRAY_ACCUM_MAX_ELEMENTS)
      throw new QueryRuntimeError(`An ArrayAccum holds at most ${ARRAY_ACCUM_MAX_ELEMENTS} elements, not ${n}.`);
    return Array.from({ length: n }, this.newElem);
  }
  /** The element at `at`, one index per dimension. */
  element(at: number[]): Acc {
    const { dims } = this;
    if (at.length !== dims.length)
      throw new QueryRuntimeError(`The ArrayAccum has ${dims.length} dimension(s); ${at.length} index(es) given.`);
    let flat = 0;
    for (let d = 0; d < dims.length; d++) {
      const i = at[d]!;
      if (!Number.isInteger(i) || i < 0 || i >= dims[d]!)
        throw new QueryRuntimeError(`ArrayAccum index ${i} is out of range: the dimension's size is ${dims[d]}.`);
      flat = flat * dims[d]! + i;
    }
    return this.cells[flat]!;
  }
  /** Another array of the same number of elements, as `+=` and `+` need. */
  private sameSize(x: unknown): ArrayAcc {
    if (!(x instanceof ArrayAcc)) throw new QueryRuntimeError('An ArrayAccum takes another ArrayAccum here.');
    if (x.cells.length !== this.cells.length || x.dims.length !== this.dims.length)
      throw new QueryRuntimeError(
        `The ArrayAccums differ in size: [${this.dims.join('][')}] and [${x.dims.join('][')}].`,
      );
    return x;
  }
  add(x: unknown): void {
    if (x instanceof ArrayElement) {
      this.element(x.at).add(x.value);
      return;
    }
    const other = this.sameSize(x).cells;
    this.cells.forEach((c, i) => c.add(other[i]!.value()));
  }
  /** `=` of another array takes its shape and a copy of its elements. */
  set(x: unknown): void {
    if (x instanceof ArrayElement) {
      this.element(x.at).set(x.value);
      return;
    }
    if (!(x instanceof ArrayAcc)) throw new QueryRuntimeError('An ArrayAccum takes another ArrayAccum here.');
    if (x === this) return;
    const cells = this.fresh(x.dims);
    cells.forEach((c, i) => c.add(x.cells[i]!.value()));
    this.dims = [...x.dims];
    this.cells = cells;
  }
  override snapshot(): unknown {
    const copy = new ArrayAcc([], this.newElem);
    copy.set(this);
    return copy;
  }
  /** `a + b`: a new array, each element the first's with the second's added. */
  plus(x: unknown): ArrayAcc {
    const other = this.sameSize(x);
    const out = new ArrayAcc([], this.newElem);
    out.set(this);
    out.add(other);
    return out;
  }
  value(): unknown {
    return this;
  }
  override json(): unknown {
    const { dims, cells } = this;
    const nest = (d: number, from: number): unknown[] => {
      const out: unknown[] = [];
      const stride = dims.slice(d + 1).reduce((a, b) => a * b, 1);
      for (let i = 0; i < dims[d]!; i++)
        out.push(d === dims.length - 1 ? cells[from + i]!.json() : nest(d + 1, from + i * stride));
      return out;
    };
    return nest(0, 0);
  }
  override method(name: string, args: unknown[]): unknown {
    switch (name) {
      case 'size':
        return this.cells.length;
      case 'reallocate': {
        const n = this.dims.length;
        if (args.length !== n)
          throw new QueryRuntimeError(
            `reallocate() of an ArrayAccum of ${n} dimension(s) takes as many sizes, not ${args.length}.`,
          );
        const dims = args.map((a) => Number(a));
        if (dims.some((d) => !Number.isInteger(d) || d < 0))
          throw new QueryRuntimeError(`reallocate() takes sizes of 0 or more, not ${dims.join(', ')}.`);
        this.cells = this.fresh(dims);
        this.dims = dims;
        return null;
      }
      default:
        return super.method(name, args);
    }
  }
}

/** Builds a factory for an accumulator type; `capacity` evaluates a HeapAccum's size once per query run. */
export function accFactory(t: AccType, capacity: () => number): () => Acc {
  switch (t.name) {
    case 'SumAccum': {
      const str = t.elem.k === 'base' && t.elem.name === 'STRING';
      return () => new SumAcc(t.elem, str ? '' : 0);
    }
    case 'MinAccum':
    case 'MaxAccum':
      return () => new MinMaxAcc(t.elem, t.name === 'MaxAccum');
    case 'AvgAccum':
      return () => new AvgAcc();
    case 'OrAccum':
    case 'AndAccum':
      return () => new BoolAcc(t.name === 'AndAccum');
    case 'BitwiseOrAccum':
    case 'BitwiseAndAccum':
      return () => new BitAcc(t.name === 'BitwiseAndAccum');
    case 'ListAccum':
      return () => new ListAcc(t.elem);
    case 'SetAccum':
      return () => new SetAcc(t.elem);
    case 'BagAccum':
      return () => new BagAcc(t.elem);
    case 'MapAccum': {
      const inner: () => Acc =
        t.value.k === 'accum' ? accFactory(t.value.acc, capacity) : () => new ValueAcc(t.value as TypeRef);
      return () => new MapAcc(t.key, inner);
    }
    case 'HeapAccum':
      return () => new HeapAcc(capacity(), t.keys);
    case 'GroupByAccum': {
      const inner = t.accs.map((a) => accFactory(a.type, capacity));
      return () =>
        new GroupByAcc(
          t.keys.map((k) => k.name),
          t.accs.map((a) => a.name),
          inner,
        );
    }
    case 'ArrayAccum': {
      const elem = accFactory(t.elem, capacity);
      return () => new ArrayAcc(t.dims, elem);
    }
  }
}

/** The static type of what an accumulator's value reads as, for arithmetic and printing. */
export function accValueType(t: AccType): TypeRef | undefined {
  switch (t.name) {
    case 'SumAccum':
    case 'MinAccum':
    case 'MaxAccum':
      return t.elem;
    case 'AvgAccum':
      return { k: 'base', name: 'DOUBLE' };
    case 'OrAccum':
    case 'AndAccum':
      return { k: 'base', name: 'BOOL' };
    case 'BitwiseOrAccum':
    case 'BitwiseAndAccum':
      return { k: 'base', name: 'INT' };
    default:
      return undefined;
  }
}

export { isInt };
