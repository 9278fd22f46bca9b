/**
 * What a query pays for the traversal view after a REST++ upsert of one vertex's attributes:
 * the view kept with that row read again (`writingAttributes`), against the same upsert with
 * the view built anew, its baseline, in the same run. In one process over a real store file,
 * on a seeded graph (default 100k vertices, 1M edges).
 *   npm run bench:view [-- --vertices N --edges M --runs R]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GraphStore } from '../src/dataplane/graph-store.js';
import { runGsql } from '../src/dataplane/gsql-runner.js';
import { graphView, writingAttributes } from '../src/dataplane/query/graph-view.js';
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

  /** ms from one vertex's upsert to the view the next query runs on, `runs` times. */
  const measure = (keep: boolean): number[] =>
    Array.from({ length: runs }, (_, i) => {
      const id = String(i * 7);
      const plan = planUpsert(store, graph, { vertices: { Node: { [id]: { score: { value: i + 0.5 } } } } });
      const started = performance.now();
      const write = () => writeUpsert(store, plan);
      if (keep) writingAttributes(store, plan.vertices, write);
      else write();
      const view = graphView(store);
      const ms = performance.now() - started;
      if (view.attrs.get('score')![view.find('Node', id)] !== i + 0.5) throw new Error('the view missed the upsert');
      return ms;
    });
  // Alternated, so both see the machine alike.
  const built: number[] = [];
  const kept: number[] = [];
  for (let round = 0; round < 2; round++) {
    built.push(...measure(false));
    kept.push(...measure(true));
  }
  const median = (xs: number[]) => quantile(xs, 0.5);
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  process.stdout.write(`View upkeep after a one-vertex upsert, ${values.vertices} vertices, ${values.edges} edges\n\n`);
  process.stdout.write(
    `${markdownTable(
      ['view for the next query', 'median ms', 'range ms'],
      [
        ['built anew (baseline)', median(built).toFixed(2), range(built)],
        ['kept, the row read again', median(kept).toFixed(2), range(kept)],
        ['baseline / kept', `${(median(built) / median(kept)).toFixed(0)}×`, ''],
      ],
    )}\n`,
  );
} finally {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
