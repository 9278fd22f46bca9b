import type { Adjacency } from './graph-view.js';

/** One hop of a path as a run walks it: its adjacency arrays, and the target types it may reach (undefined: any). */
export interface PathStep {
  adjs: Adjacency[];
  targets: Uint8Array | undefined;
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
  typeOf: Uint16Array,
  tick: () => void,
  row: (path: number[]) => void,
): void {
  const path = new Array<number>(2 * steps.length + 1).fill(0);
  const walk = (depth: number, v: number): void => {
    if (depth === steps.length) {
      row(path);
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
