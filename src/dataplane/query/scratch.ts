/** Most bytes of arrays one view keeps between runs. */
const KEPT_BYTES = 64 * 1024 * 1024;
/** Most arrays of one kind one view keeps, however small. */
const KEPT_PER_KIND = 32;

type Kind = Float64Array | Uint32Array | Int32Array | Uint8Array;

/** Arrays of one kind and length, given back after use. */
class Kept<A extends Kind> {
  private readonly free: A[] = [];
  constructor(
    private readonly make: () => A,
    private readonly most: number,
  ) {}

  take(): { array: A; fresh: boolean } {
    const array = this.free.pop();
    return array ? { array, fresh: false } : { array: this.make(), fresh: true };
  }

  give(array: A): void {
    if (this.free.length < this.most) this.free.push(array);
  }
}

/**
 * Per-vertex arrays (one slot per vertex of a view) kept from run to run. A short query on a
 * large graph needs a few of them per run: a column per vertex accumulator, two marks per
 * SELECT. Made anew each time, a hundred thousand vertices cost most of a megabyte per array,
 * and collecting them took half of such a query's time. Runs are synchronous, so an array is
 * never in two runs at once; a query that throws simply does not give its arrays back.
 */
export class ScratchArrays {
  private readonly f64: Kept<Float64Array>;
  private readonly i32: Kept<Int32Array>;
  /** Zero-filled while kept. */
  private readonly u32: Kept<Uint32Array>;
  /** Zero-filled while kept. */
  private readonly u8: Kept<Uint8Array>;

  constructor(readonly size: number) {
    // A quarter of the bytes for each kind; on a graph so large that one array is more, none is kept.
    const most = (bytes: number) => Math.min(KEPT_PER_KIND, Math.floor(KEPT_BYTES / 4 / (bytes * Math.max(size, 1))));
    this.f64 = new Kept(() => new Float64Array(size), most(8));
    this.i32 = new Kept(() => new Int32Array(size), most(4));
    this.u32 = new Kept(() => new Uint32Array(size), most(4));
    this.u8 = new Kept(() => new Uint8Array(size), most(1));
  }

  /** Every slot `value`; without one, slots to be written before they are read. */
  float64(value?: number): Float64Array {
    const { array, fresh } = this.f64.take();
    if (value !== undefined && (!fresh || value !== 0)) array.fill(value);
    return array;
  }

  /** Slots to be written before they are read. */
  int32(): Int32Array {
    return this.i32.take().array;
  }

  /** Every slot 0. */
  uint32(): Uint32Array {
    return this.u32.take().array;
  }

  /** Every slot 0. */
  uint8(): Uint8Array {
    return this.u8.take().array;
  }

  giveFloat64(array: Float64Array): void {
    if (array.length === this.size) this.f64.give(array);
  }

  giveInt32(array: Int32Array): void {
    if (array.length === this.size) this.i32.give(array);
  }

  /** `zeroed`: the caller has put every slot it set back to 0. */
  giveUint32(array: Uint32Array, zeroed = false): void {
    if (array.length !== this.size) return;
    if (!zeroed) array.fill(0);
    this.u32.give(array);
  }

  /** `zeroed`: the caller has put every slot it set back to 0. */
  giveUint8(array: Uint8Array, zeroed = false): void {
    if (array.length !== this.size) return;
    if (!zeroed) array.fill(0);
    this.u8.give(array);
  }
}
