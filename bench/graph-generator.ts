/**
 * Seeded random graphs for the data-plane algorithm benchmark: the same seed gives the same
 * edges on every machine, so the data plane and networkx are timed on one graph.
 */
import fs from 'node:fs';

export interface GeneratedGraph {
  vertices: number;
  /** Endpoints of each undirected edge, `from[i] < to[i]`; no self loops, no edge twice. */
  from: Uint32Array;
  to: Uint32Array;
}

/** mulberry32: a small, fast 32-bit generator; enough for picking endpoints. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `edges` distinct undirected edges between uniformly drawn endpoints. Draws are bounded: a
 * graph that asks for more than half the possible edges is refused instead of looping on repeats.
 */
export function generateGraph(vertices: number, edges: number, seed: number): GeneratedGraph {
  const possible = (vertices * (vertices - 1)) / 2;
  if (!Number.isInteger(vertices) || vertices < 2 || !Number.isInteger(edges) || edges < 0 || edges > possible / 2) {
    throw new RangeError(
      `cannot draw ${edges} distinct edges among ${vertices} vertices (at most half of ${possible})`,
    );
  }
  const next = random(seed);
  const seen = new Set<number>();
  const from = new Uint32Array(edges);
  const to = new Uint32Array(edges);
  let n = 0;
  while (n < edges) {
    const a = Math.floor(next() * vertices);
    const b = Math.floor(next() * vertices);
    if (a === b) continue;
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const key = lo * vertices + hi;
    if (seen.has(key)) continue;
    seen.add(key);
    from[n] = lo;
    to[n] = hi;
    n++;
  }
  return { vertices, from, to };
}

/** The edges as `from to` lines, the format networkx's read_edgelist takes. */
export function writeEdgeList(graph: GeneratedGraph, file: string): void {
  const fd = fs.openSync(file, 'w');
  try {
    const chunk = 100_000;
    for (let i = 0; i < graph.from.length; i += chunk) {
      let text = '';
      for (let k = i; k < Math.min(i + chunk, graph.from.length); k++) text += `${graph.from[k]} ${graph.to[k]}\n`;
      fs.writeSync(fd, text);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** REST++ upsert bodies of at most `batch` edges each; the vertices come with their edges. */
export function* upsertBatches(graph: GeneratedGraph, batch: number): Generator<string> {
  for (let i = 0; i < graph.from.length; i += batch) {
    const edges: Record<string, Record<string, Record<string, Record<string, object>>>> = {};
    for (let k = i; k < Math.min(i + batch, graph.from.length); k++) {
      const targets = ((edges[graph.from[k]!] ??= { Link: { Node: {} } }).Link!.Node ??= {});
      targets[graph.to[k]!] = {};
    }
    yield JSON.stringify({ edges: { Node: edges } });
  }
}
