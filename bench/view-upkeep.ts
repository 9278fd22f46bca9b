/**
 * What a query pays for the traversal view after REST++ upserts: the view told of them and
 * taking their rows in (`writingUpsert`), against the same upserts with the view built anew,
 * its baseline, in the same run. Four kinds of upsert: one vertex's attribute, one edge between
 * vertices the view holds, one new vertex with an edge, and a burst of 100 one-edge upserts
 * before the query. In one process over a real store file, on a seeded graph (default 100k
 * vertices, 1M edges).
 *   npm run bench:view [-- --vertices N --edges M --runs R]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GraphStore } from '../src/dataplane/graph-store.js';
import { runGsql } from '../src/dataplane/gsql-runner.js';
import { graphView, writingUpsert } from '../src/dataplane/query/graph-view.js';
import { planUpsert } from '../src/dataplane/upsert-plan.js';
import { writeUpsert } from '../src/dataplane/upsert-write.js';
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

  const n = Number(values.vertices);
  let fresh = 0;
  /** The payloads of one measured upsert (several for a burst), made new for each run. */
  const kinds: [string, () => object[]][] = [
    ["one vertex's attribute", () => [{ vertices: { Node: { [String(fresh++ % n)]: { score: { value: fresh } } } } }]],
    ['one edge, both ends held', () => [edgeBody(String(fresh++ % n), String((fresh * 7919) % n))]],
    ['one new vertex with an edge', () => [edgeBody(String(n + fresh++), String(fresh % n))]],
    ['100 one-edge upserts', () => Array.from({ length: 100 }, () => edgeBody(String(fresh++ % n), String(fresh % n)))],
  ];
  function edgeBody(from: string, to: string): object {
    return { edges: { Node: { [from]: { Link: { Node: { [to]: {} } } } } } };
  }

  /** ms from the first upsert to the view the next query runs on, `runs` times. */
  const measure = (bodies: () => object[], keep: boolean): number[] =>
    Array.from({ length: runs }, () => {
      const plans = bodies().map((body) => planUpsert(store, graph, body));
      const started = performance.now();
      for (const plan of plans) {
        const write = () => writeUpsert(store, plan);
        if (keep) writingUpsert(store, plan, write);
        else write();
      }
      const view = graphView(store);
      const ms = performance.now() - started;
      const last = plans[plans.length - 1]!;
      const named = last.vertices[0] ?? last.edges[0]!.from;
      if (view.find('Node', named.id) < 0) throw new Error('the view missed the upsert');
      return ms;
    });
  const median = (xs: number[]) => quantile(xs, 0.5);
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  const rows: string[][] = [];
  for (const [kind, bodies] of kinds) {
    // Alternated, so both see the machine alike.
    const built: number[] = [];
    const kept: number[] = [];
    for (let round = 0; round < 2; round++) {
      built.push(...measure(bodies, false));
      kept.push(...measure(bodies, true));
    }
    rows.push([
      kind,
      median(built).toFixed(2),
      median(kept).toFixed(2),
      range(kept),
      `${(median(built) / median(kept)).toFixed(0)}×`,
    ]);
  }
  process.stdout.write(`View upkeep after upserts, ${values.vertices} vertices, ${values.edges} edges\n\n`);
  process.stdout.write(
    `${markdownTable(
      [
        'upsert before the query',
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
