import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RepeatedHop, RowBits, walkPaths } from './path-walk.js';
import { ScratchArrays } from './scratch.js';

/** A graph of these vertex types, with arrays of its own to lend. */
const graphOf = (typeOf: Uint16Array) => ({ typeOf, scratch: new ScratchArrays(typeOf.length) });

describe('path walks', () => {
  it('gives every walk along the hops that takes no edge twice, in adjacency order', () => {
    // Vertices 0..2; edge 0 joins 0-1 and edge 1 joins 1-2, each listed from both ends.
    const both = {
      off: Int32Array.from([0, 1, 3, 4]),
      nbr: Int32Array.from([1, 0, 2, 1]),
      eid: Int32Array.from([0, 0, 1, 1]),
    };
    const step = { adjs: [both], targets: undefined };
    const rows: number[][] = [];
    let looked = 0;
    walkPaths(
      [0, 1],
      [step, step],
      graphOf(new Uint16Array(3)),
      () => looked++,
      (path) => rows.push(path.slice()),
    );
    // From 0: 0-1-2 (0-1-0 would take edge 0 back). From 1, each first hop's only way on is back.
    assert.deepEqual(rows, [[0, 0, 1, 1, 2]]);
    // Every edge looked at counts, the ones that led nowhere too: 0-1, 1-0, 1-2 from 0; 1-0, 0-1, 1-2, 2-1 from 1.
    assert.equal(looked, 7);
    const typed = { adjs: [both], targets: Uint8Array.from([1, 0]) };
    const rows2: number[][] = [];
    walkPaths(
      [1],
      [typed],
      graphOf(Uint16Array.from([0, 1, 0])),
      () => undefined,
      (path) => rows2.push(path.slice()),
    );
    assert.deepEqual(rows2, [
      [1, 0, 0],
      [1, 1, 2],
    ]);
  });

  it('repeats a hop along the shortest walks within its bounds, a cycle back to the source included', () => {
    // A directed cycle 0 -> 1 -> 2 -> 0, and 1 -> 3 -> 2 beside 1 -> 2.
    const adj = {
      off: Int32Array.from([0, 1, 3, 4, 5]),
      nbr: Int32Array.from([1, 2, 3, 0, 2]),
      eid: new Int32Array(5),
    };
    // One graph for every hop below: each borrows the arrays the one before gave back, so what
    // a hop leaves in them must not show in the next one's ends.
    const graph = graphOf(new Uint16Array(4));
    const ends = (min: number, max: number, from = 0) => {
      let looked = 0;
      const hop = new RepeatedHop(graph, { adjs: [adj], targets: undefined, repeat: { min, max } });
      const { ends: at, walks } = hop.from(from, () => looked++);
      hop.release();
      return { found: Object.fromEntries(at.map((v, i) => [v, walks[i]])), looked };
    };
    assert.deepEqual(ends(0, Infinity).found, { 0: 1, 1: 1, 2: 1, 3: 1 });
    // Without a lower bound each edge is looked at once at most.
    assert.ok(ends(0, Infinity).looked <= 5);
    assert.deepEqual(ends(1, Infinity).found, { 1: 1, 2: 1, 3: 1, 0: 1 });
    assert.deepEqual(ends(0, 1).found, { 0: 1, 1: 1 });
    // Exactly 3 edges from 1: 1-2-0-1 and 1-3-2-0; nothing reaches 2 or 3 in three.
    assert.deepEqual(ends(3, 3, 1).found, { 0: 1, 1: 1 });
    assert.deepEqual(ends(2, Infinity).found, { 2: 1, 3: 1, 0: 1, 1: 1 });
    // The same hop object serves source after source: nothing of one is left for the next.
    const hop = new RepeatedHop(graph, { adjs: [adj], targets: undefined, repeat: { min: 0, max: Infinity } });
    for (let i = 0; i < 3; i++) assert.deepEqual(hop.from(i % 4, () => undefined).ends.length, 4);
  });

  it('keeps a bit per row, however many rows there are', () => {
    const bits = new RowBits();
    const n = 100_003;
    for (let i = 0; i < n; i++) bits.push(i % 3 === 0);
    for (const i of [0, 1, 2, 3, 31, 32, 33, 65_535, 65_536, 99_999, 100_002])
      assert.equal(bits.has(i), i % 3 === 0, `row ${i}`);
  });
});
