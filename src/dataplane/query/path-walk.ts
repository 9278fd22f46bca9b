import type { Adjacency } from './graph-view.js';
import type { ScratchArrays } from './scratch.js';

/** What a walk reads of the graph: each vertex's type, and the per-vertex arrays it may borrow. */
export interface WalkedGraph {
  typeOf: Uint16Array;
  scratch: ScratchArrays;
}

/** One hop of a path as a run walks it: its adjacency arrays, and the target types it may reach (undefined: any). */
export interface PathStep {
  adjs: Adjacency[];
  targets: Uint8Array | undefined;
  /** A V2 repetition, `-(E>*1..3)-`: between `min` and `max` edges (`max` may be Infinity). */
  repeat?: { min: number; max: number };
}

/**
 * The ends a repeated hop reaches from one vertex under GSQL's shortest-path semantics: for each
 * end, only the shortest walks whose length is within the bounds match, and each such walk is a
 * row (so an end reached by three shortest walks makes three rows). Walks may pass a vertex or an
 * edge again: with a lower bound, the shortest walk of at least that many edges can.
 *
 * Worked out in layers, one per length: the number of walks of each length into each vertex.
 * A vertex is an end at the first length within the bounds that reaches it. With no lower bound
 * every walk that is not a shortest one to where it is can be dropped (a prefix of a shortest walk
 * is a shortest walk), which is breadth-first search with path counts, O(edges). With one, walks
 * are counted in full until every vertex reachable from the first layer within the bounds is an
 * end, O(edges × layers). Each edge looked at is a tick, so the run's deadline bounds either.
 */
export class RepeatedHop {
  /** Walks into each vertex of a layer and of the next; all zero between calls. */
  private readonly counts: Float64Array;
  private readonly nextCounts: Float64Array;
  /** The call a vertex was last made an end in, so that nothing is cleared between sources. */
  private readonly endFor: Uint32Array;
  /** The layer a vertex was last put in, likewise. */
  private readonly inLayer: Uint32Array;
  private call = 0;
  private layers = 0;
  private readonly typeOf: Uint16Array;

  /** Its per-vertex arrays are borrowed from the graph's scratch arrays until `release`. */
  constructor(
    private readonly graph: WalkedGraph,
    private readonly step: PathStep & { repeat: { min: number; max: number } },
  ) {
    const { scratch } = graph;
    this.typeOf = graph.typeOf;
    this.counts = scratch.float64(0);
    this.nextCounts = scratch.float64(0);
    this.endFor = scratch.uint32();
    this.inLayer = scratch.uint32();
  }

  /** Gives the arrays back, after a walk that ended (one cut short by the deadline keeps them). */
  release(): void {
    const { scratch } = this.graph;
    scratch.giveFloat64(this.counts);
    scratch.giveFloat64(this.nextCounts);
    scratch.giveUint32(this.endFor);
    scratch.giveUint32(this.inLayer);
  }

  /** The ends from `v` and how many shortest walks reach each, in the order they are found. */
  from(v: number, tick: () => void): { ends: number[]; walks: number[] } {
    const { adjs, targets, repeat } = this.step;
    const { min, max } = repeat;
    const mark = ++this.call;
    const { endFor, inLayer, typeOf } = this;
    let counts = this.counts;
    let nextCounts = this.nextCounts;
    const ends: number[] = [];
    const walks: number[] = [];
    let layer = [v];
    counts[v] = 1;
    /** With a lower bound: how many vertices can still become ends (undefined until the first layer within bounds). */
    let open: number | undefined;
    for (let k = 0; layer.length > 0; k++) {
      if (k >= min) {
        if (open === undefined) open = min === 0 ? Infinity : this.reachable(layer, tick);
        for (const u of layer)
          if (endFor[u] !== mark) {
            endFor[u] = mark;
            open--;
            if (!targets || targets[typeOf[u]!]) {
              ends.push(u);
              walks.push(counts[u]!);
            }
          }
      }
      if (k === max || open === 0) {
        for (const u of layer) counts[u] = 0;
        break;
      }
      const next: number[] = [];
      const inNext = ++this.layers;
      for (const u of layer) {
        const c = counts[u]!;
        counts[u] = 0;
        for (const { off, nbr } of adjs) {
          const end = off[u + 1]!;
          for (let j = off[u]!; j < end; j++) {
            tick();
            const w = nbr[j]!;
            // Without a lower bound, a walk into a vertex that is already an end is not a shortest one.
            if (min === 0 && endFor[w] === mark) continue;
            if (inLayer[w] !== inNext) {
              inLayer[w] = inNext;
              next.push(w);
            }
            nextCounts[w] = nextCounts[w]! + c;
          }
        }
      }
      [counts, nextCounts] = [nextCounts, counts];
      layer = next;
    }
    return { ends, walks };
  }

  /** How many vertices can be reached from `layer` (itself included): once all are ends, no layer adds one. */
  private reachable(layer: number[], tick: () => void): number {
    const seen = new Set<number>(layer);
    const queue = [...layer];
    for (let i = 0; i < queue.length; i++) {
      const u = queue[i]!;
      for (const { off, nbr } of this.step.adjs) {
        const end = off[u + 1]!;
        for (let j = off[u]!; j < end; j++) {
          tick();
          const w = nbr[j]!;
          if (!seen.has(w)) {
            seen.add(w);
            queue.push(w);
          }
        }
      }
    }
    return seen.size;
  }
}

/**
 * Every walk from each source vertex along `steps` in turn that uses no edge twice: a path may
 * come back to a vertex it passed, never along the same edge (TigerGraph's pattern matching
 * of a fixed number of hops). Each is given to `row` as `[v0, e1, v1, e2, v2, …]`, in one
 * array that the next walk overwrites. `tick` is called for every edge looked at, whether or
 * not a row comes of it: a walk that finds few rows may still look at many edges.
 */
export function walkPaths(
  sources: ArrayLike<number>,
  steps: readonly PathStep[],
  graph: WalkedGraph,
  tick: () => void,
  row: (path: number[]) => void,
): void {
  const { typeOf } = graph;
  const path = new Array<number>(2 * steps.length + 1).fill(0);
  const repeated = steps.map((s) =>
    s.repeat ? new RepeatedHop(graph, s as PathStep & { repeat: { min: number; max: number } }) : null,
  );
  const walk = (depth: number, v: number): void => {
    if (depth === steps.length) {
      row(path);
      return;
    }
    const hop = repeated[depth];
    if (hop) {
      // A repeated hop binds no edge (GSQL allows it no alias): -1 stands in its place.
      const { ends, walks } = hop.from(v, tick);
      path[2 * depth + 1] = -1;
      for (let i = 0; i < ends.length; i++)
        for (let n = walks[i]!; n > 0; n--) {
          // Walks can be many more than edges (they multiply along the way): each row is a tick.
          tick();
          path[2 * depth + 2] = ends[i]!;
          walk(depth + 1, ends[i]!);
        }
      return;
    }
    const { adjs, targets } = steps[depth]!;
    for (const { off, nbr, eid } of adjs) {
      const end = off[v + 1]!;
      for (let k = off[v]!; k < end; k++) {
        tick();
        const t = nbr[k]!;
        if (targets && !targets[typeOf[t]!]) continue;
        const e = eid[k]!;
        if (takenBefore(path, depth, e)) continue;
        path[2 * depth + 1] = e;
        path[2 * depth + 2] = t;
        walk(depth + 1, t);
      }
    }
  };
  for (let i = 0; i < sources.length; i++) {
    path[0] = sources[i]!;
    walk(0, sources[i]!);
  }
  for (const hop of repeated) hop?.release();
}

/** Whether the path's first `depth` hops took edge `e`. */
function takenBefore(path: number[], depth: number, e: number): boolean {
  for (let d = 0; d < depth; d++) if (path[2 * d + 1] === e) return true;
  return false;
}

/** One bit per row of a walk, in the order the walk gives them: which rows a WHERE kept. */
export class RowBits {
  private words = new Uint32Array(1024);
  private size = 0;

  push(kept: boolean): void {
    const w = this.size >>> 5;
    if (w === this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    if (kept) this.words[w]! |= 1 << (this.size & 31);
    this.size++;
  }

  has(row: number): boolean {
    return ((this.words[row >>> 5]! >>> (row & 31)) & 1) === 1;
  }
}
