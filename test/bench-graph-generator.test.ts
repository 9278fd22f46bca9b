import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { generateGraph, upsertBatches, writeEdgeList } from '../bench/graph-generator.js';

/** The benchmark's graphs: the data plane and networkx must be timed on the same edges. */
describe('the benchmark graph generator', () => {
  it('gives the same edges for the same seed, and others for another seed', () => {
    const a = generateGraph(1000, 20_000, 7);
    const b = generateGraph(1000, 20_000, 7);
    const c = generateGraph(1000, 20_000, 8);
    assert.deepEqual(a.from, b.from);
    assert.deepEqual(a.to, b.to);
    assert.notDeepEqual(a.from, c.from);
  });

  it('draws exactly the edges asked for, distinct, without self loops, smaller end first', () => {
    const g = generateGraph(500, 10_000, 1);
    assert.equal(g.from.length, 10_000);
    const keys = new Set<number>();
    for (let i = 0; i < g.from.length; i++) {
      assert.ok(g.from[i]! < g.to[i]!, `edge ${i}: ${g.from[i]} < ${g.to[i]}`);
      assert.ok(g.to[i]! < 500);
      keys.add(g.from[i]! * 500 + g.to[i]!);
    }
    assert.equal(keys.size, 10_000);
  });

  it('refuses a graph denser than half of all possible edges, naming the figures', () => {
    assert.throws(() => generateGraph(10, 23, 1), {
      name: 'RangeError',
      message: /23 distinct edges among 10 vertices/,
    });
    assert.equal(generateGraph(10, 22, 1).from.length, 22);
  });

  it('writes the edge list networkx reads and upsert batches holding every edge once', () => {
    const g = generateGraph(300, 2_500, 3);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-graph-')), 'edges.txt');
    writeEdgeList(g, file);
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 2_500);
    assert.equal(lines[0], `${g.from[0]} ${g.to[0]}`);
    fs.rmSync(path.dirname(file), { recursive: true });

    const bodies = [...upsertBatches(g, 1_000)];
    assert.equal(bodies.length, 3);
    let edges = 0;
    for (const body of bodies) {
      const sources = JSON.parse(body).edges.Node as Record<string, { Link: { Node: Record<string, object> } }>;
      for (const s of Object.values(sources)) edges += Object.keys(s.Link.Node).length;
    }
    assert.equal(edges, 2_500);
  });
});
