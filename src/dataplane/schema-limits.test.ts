import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import type { GraphStore } from './graph-store.js';
import { runGsql } from './gsql-runner.js';
import { schemaLimits } from './schema-limits.js';

const stores = scratchStores('schema-limits');
const newStore = () => stores.open();

const range = (n: number, name: string) => Array.from({ length: n }, (_, i) => `${name}${i}`);
const vertices = (names: string[]) => names.map((t) => `CREATE VERTEX ${t} (PRIMARY_ID id STRING)`);

/** What the store file holds of the schema: the bytes of every stored definition. */
function storedBytes(store: GraphStore): number {
  return Number(
    store.db
      .prepare(
        `SELECT (SELECT total(length(CAST(definition AS BLOB))) FROM vertex_types)
              + (SELECT total(length(CAST(definition AS BLOB))) FROM edge_types)
              + (SELECT total(length(CAST(definition AS BLOB))) FROM graphs)`,
      )
      .pluck()
      .get(),
  );
}

/** The last lines of a refused request: the refusal, then GSQL's exit code. */
function refusal(output: string): string {
  assert.match(output, /\n__GSQL__RETURN__CODE__,212$/, output.slice(-500));
  return output.slice(output.lastIndexOf('Semantic Check Fails:'));
}

/** n vertex types, then `CREATE GRAPH gi (*)` n times: each graph lists every type. */
const everyTypeInEveryGraph = (n: number) =>
  [...vertices(range(n, 'T')), ...range(n, 'g').map((g) => `CREATE GRAPH ${g} (*)`)].join('\n');

describe("a workspace's schema has limits", () => {
  it('graphs listing every type stop at the limit on the bytes of the schema, those before staying', () => {
    // Long names: each graph's list takes some 60 KB, so the bytes run out before the graphs.
    const types = range(2000, 'A_vertex_type_with_a_long_name_');
    const store = newStore();
    const result = runGsql(
      store,
      [...vertices(types), ...range(200, 'g').map((g) => `CREATE GRAPH ${g} (*)`)].join('\n'),
    );
    const made = store.catalog.graphs.size;
    assert.ok(made > 10 && made < 200, `${made} graphs`);
    assert.equal(
      refusal(result.output).replace(/take \d+ bytes/, 'take … bytes'),
      `Semantic Check Fails: The schema would take … bytes, past the limit of ${schemaLimits.bytes} bytes for the ` +
        `definitions of all types and graphs of a workspace; drop some first.\nThe graph g${made} could not be ` +
        'created!\n__GSQL__RETURN__CODE__,212',
    );
    assert.equal(store.catalog.vertexTypes.size, 2000, 'the statements before stay applied');
    assert.ok(storedBytes(store) <= schemaLimits.bytes, `${storedBytes(store)} bytes stored`);
    assert.equal(store.catalog.bytes, storedBytes(store), 'the schema in memory counts what the file holds');

    // Dropping a graph makes room for one.
    assert.ok(runGsql(store, `DROP GRAPH g0\nCREATE GRAPH again (*)`).ok);
    assert.equal(store.catalog.bytes, storedBytes(store));
    store.close();
  });

  it('what a request stores grows as the request does, not as its graphs times its types', () => {
    const perRequestByte = (n: number) => {
      const store = newStore();
      const request = everyTypeInEveryGraph(n);
      runGsql(store, request);
      const ratio = storedBytes(store) / request.length;
      store.close();
      return ratio;
    };
    // 300 types and graphs reach the limit on graphs; 2400 the one on bytes. Without limits the
    // second stored 8 times as much per byte of the request: 40 MB.
    const small = perRequestByte(300);
    const large = perRequestByte(2400);
    assert.ok(large < 2 * small, `${small.toFixed(1)} then ${large.toFixed(1)} bytes stored per byte of GSQL`);
  });

  it(`at most ${schemaLimits.graphs} graphs`, () => {
    const store = newStore();
    const graphs = range(schemaLimits.graphs + 1, 'g').map((g) => `CREATE GRAPH ${g} (V)`);
    const result = runGsql(store, ['CREATE VERTEX V (PRIMARY_ID id STRING)', ...graphs].join('\n'));
    assert.equal(
      refusal(result.output),
      `Semantic Check Fails: A workspace holds at most ${schemaLimits.graphs} graphs, the limit of its schema; ` +
        `drop one first.\nThe graph g${schemaLimits.graphs} could not be created!\n__GSQL__RETURN__CODE__,212`,
    );
    assert.equal(store.catalog.graphs.size, schemaLimits.graphs);
    store.close();
  });

  it(`at most ${schemaLimits.types} vertex and edge types`, () => {
    const store = newStore();
    const types = range(schemaLimits.types - 1, 'T');
    const ok = runGsql(store, [...vertices(types), 'CREATE UNDIRECTED EDGE E (FROM T0, TO T1)'].join('\n'));
    assert.ok(ok.ok, ok.output.slice(-300));
    for (const [statement, what] of [
      ['CREATE VERTEX Late (PRIMARY_ID id STRING)', 'vertex types: [Late]'],
      ['CREATE DIRECTED EDGE F (FROM T0, TO T1)', 'edge types: [F]'],
    ]) {
      const refused = runGsql(store, statement!);
      assert.equal(
        refusal(refused.output),
        `Semantic Check Fails: A workspace holds at most ${schemaLimits.types} vertex and edge types, the limit ` +
          `of its schema; drop some first.\nFailed to create ${what}.\n__GSQL__RETURN__CODE__,212`,
      );
    }
    assert.equal(store.catalog.vertexTypes.size + store.catalog.edgeTypes.size, schemaLimits.types);
    assert.ok(runGsql(store, 'DROP EDGE E\nCREATE DIRECTED EDGE F (FROM T0, TO T1)').ok, 'room again after a drop');
    store.close();
  });

  it(`at most ${schemaLimits.attributesPerType} attributes a type`, () => {
    const store = newStore();
    const attrs = (n: number) => range(n, 'a').map((a) => `${a} INT`);
    const most = schemaLimits.attributesPerType;
    assert.ok(runGsql(store, `CREATE VERTEX Wide (PRIMARY_ID id STRING, ${attrs(most).join(', ')})`).ok);
    const vertex = runGsql(store, `CREATE VERTEX Wider (PRIMARY_ID id STRING, ${attrs(most + 1).join(', ')})`);
    assert.equal(
      refusal(vertex.output),
      `Semantic Check Fails: The type Wider declares ${most + 1} attributes; a type has at most ${most}, the ` +
        "limit of a workspace's schema.\nFailed to create vertex types: [Wider].\n__GSQL__RETURN__CODE__,212",
    );
    const edge = runGsql(store, `CREATE DIRECTED EDGE E (FROM Wide, TO Wide, ${attrs(most + 1).join(', ')})`);
    assert.match(refusal(edge.output), /The type E declares 1001 attributes; a type has at most 1000/);
    assert.deepEqual([...store.catalog.vertexTypes.keys()], ['Wide']);
    store.close();
  });
});
