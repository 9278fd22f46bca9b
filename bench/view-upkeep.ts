/**
 * What a query pays for the traversal view after REST++ writes: the view told of them and
 * taking their rows in (`writingRows`), against the same writes with the view built anew, its
 * baseline, in the same run. Five kinds of write: one vertex's attribute, one edge between
 * vertices the view holds, one new vertex with an edge, a burst of 100 one-edge upserts before
 * the query, and one vertex deleted with its edges. In one process over a real store file, on a
 * seeded graph (default 100k vertices, 1M edges).
 *   npm run bench:view [-- --vertices N --edges M --runs R]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GraphStore } from '../src/dataplane/graph-store.js';
import { runGsql } from '../src/dataplane/gsql-runner.js';
import { graphView, writingRows, type GraphView } from '../src/dataplane/query/graph-view.js';
import type { TouchedRows } from '../src/dataplane/touched-rows.js';
import { planUpsert } from '../src/dataplane/upsert-plan.js';
import { writeUpsert } from '../src/dataplane/upsert-write.js';
import { deleteVertex } from '../src/dataplane/vertex-ops.js';
import { generateGraph, upsertBatches } from './graph-generator.js';
import { quantile } from './stats.js';
import { markdownTable } from './table.js';

const { values } = parseArgs({
  options: {
    vertices: { type: 'string', default: '100000' },
    edges: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
  },
});
const runs = Number(values.runs);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-view-upkeep-'));
const store = GraphStore.open(path.join(dir, 'graph.db'));
try {
  const schema = runGsql(
    store,
    'CREATE VERTEX Node (PRIMARY_ID id INT, score DOUBLE)\nCREATE UNDIRECTED EDGE Link (FROM Node, TO Node)\n' +
      'CREATE GRAPH bench (Node, Link)',
  );
  if (!schema.ok) throw new Error(schema.output);
  const graph = store.catalog.graphs.get('bench')!;
  const generated = generateGraph(Number(values.vertices), Number(values.edges), 24);
  for (const body of upsertBatches(generated, 10_000)) writeUpsert(store, planUpsert(store, graph, JSON.parse(body)));
  graphView(store);

  function edgeBody(from: string, to: string): object {
    return { edges: { Node: { [from]: { Link: { Node: { [to]: {} } } } } } };
  }

  /** One write as a REST++ route makes it, and how the view shows it was taken in. */
  interface Write {
    run: (touched: TouchedRows | undefined) => void;
    shown: (view: GraphView) => boolean;
  }
  const upsert = (body: object): Write => {
    const plan = planUpsert(store, graph, body);
    const named = plan.vertices[0] ?? plan.edges[0]!.from;
    return {
      run: (touched) => {
        touched?.rows(plan);
        writeUpsert(store, plan);
      },
      shown: (view) => view.find('Node', named.id) >= 0,
    };
  };
  const node = store.catalog.vertexTypes.get('Node')!;
  const removal = (id: string): Write => ({
    run: (touched) => deleteVertex(store, node, id, touched),
    shown: (view) => view.find('Node', id) < 0,
  });

  /** ms from the first write to the view the next query runs on, `runs` times. */
  const measure = (writes: () => Write[], keep: boolean): number[] =>
    Array.from({ length: runs }, () => {
      const list = writes();
      const started = performance.now();
      for (const w of list) {
        if (keep) writingRows(store, w.run);
        else w.run(undefined);
      }
      const view = graphView(store);
      const ms = performance.now() - started;
      if (!list[list.length - 1]!.shown(view)) throw new Error('the view missed the write');
      return ms;
    });

  const n = Number(values.vertices);
  let fresh = 0;
  /** The writes measured at once (several for a burst), made new for each run. */
  const kinds: [string, () => Write[]][] = [
    [
      "one vertex's attribute",
      () => [upsert({ vertices: { Node: { [String(fresh++ % n)]: { score: { value: fresh } } } } })],
    ],
    ['one edge, both ends held', () => [upsert(edgeBody(String(fresh++ % n), String((fresh * 7919) % n)))]],
    ['one new vertex with an edge', () => [upsert(edgeBody(String(n + fresh++), String(fresh % n)))]],
    [
      '100 one-edge upserts',
      () => Array.from({ length: 100 }, () => upsert(edgeBody(String(fresh++ % n), String(fresh % n)))),
    ],
    // Vertices of the generated graph, each deleted once: about 20 edges go with each.
    ['one vertex deleted, with its edges', () => [removal(String((fresh++ * 7919) % n))]],
  ];
  const median = (xs: number[]) => quantile(xs, 0.5);
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  const rows: string[][] = [];
  for (const [kind, writes] of kinds) {
    // Alternated, so both see the machine alike.
    const built: number[] = [];
    const kept: number[] = [];
    for (let round = 0; round < 2; round++) {
      built.push(...measure(writes, false));
      kept.push(...measure(writes, true));
    }
    rows.push([
      kind,
      median(built).toFixed(2),
      median(kept).toFixed(2),
      range(kept),
      `${(median(built) / median(kept)).toFixed(0)}×`,
    ]);
  }
  process.stdout.write(`View upkeep after writes, ${values.vertices} vertices, ${values.edges} edges\n\n`);
  process.stdout.write(
    `${markdownTable(
      [
        'write before the query',
        'built anew, median ms (baseline)',
        'taken in, median ms',
        'taken in, range ms',
        'baseline / taken in',
      ],
      rows,
    )}\n`,
  );
} finally {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
