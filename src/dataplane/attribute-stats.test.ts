import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import { runBuiltin } from './builtins.js';
import { runGsql } from './gsql-runner.js';

describe('stat_vertex_attr and stat_edge_attr', () => {
  const stores = scratchStores('attribute-stats');

  it('reports no attribute for a type without rows, and MIN/MAX/AVG once it has some', () => {
    const store = stores.open();
    try {
      const made = runGsql(
        store,
        [
          'CREATE VERTEX V (PRIMARY_ID id STRING, n INT)',
          'CREATE DIRECTED EDGE E (FROM V, TO V, w DOUBLE)',
          'CREATE GRAPH g (*)',
        ].join('\n'),
      );
      assert.ok(made.ok, made.output);
      const graph = store.catalog.graphs.get('g')!;
      const stats = (fn: string, type: string) => runBuiltin(store, graph, { function: fn, type });
      assert.deepEqual(stats('stat_vertex_attr', 'V'), { results: [{ v_type: 'V', attributes: {} }] });
      assert.deepEqual(stats('stat_edge_attr', 'E'), { results: [{ e_type: 'E', attributes: {} }] });

      const upserted = runGsql(
        store,
        'USE GRAPH g\nUPSERT V -(E)-> V VALUES ("a", "b", 2.5)\nUPSERT V VALUES ("a", 4)',
      );
      assert.ok(upserted.ok, upserted.output);
      assert.deepEqual(stats('stat_vertex_attr', 'V'), {
        results: [{ v_type: 'V', attributes: { n: { MIN: 0, MAX: 4, AVG: 2 } } }],
      });
      assert.deepEqual(stats('stat_edge_attr', 'E'), {
        results: [{ e_type: 'E', attributes: { w: { MIN: 2.5, MAX: 2.5, AVG: 2.5 } } }],
      });
    } finally {
      store.close();
    }
  });
});
