import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import type { StoredEdgeType } from './catalog.js';
import { selectEdges, viewsFrom } from './edge-ops.js';
import type { GraphStore } from './graph-store.js';
import { planUpsert } from './upsert-plan.js';
import { writeUpsert } from './upsert-write.js';

/**
 * A request's look-ups in the schema cost what the request names, not that times what the
 * schema holds: each test counts how often the schema's lists are read while a request is
 * planned, written or read, through lists that count their reads.
 */

const stores = scratchStores('schema-lookups');
const storeWith = (gsql: string[]): GraphStore => stores.open(gsql.join('\n'));

/** A list that counts how many of its items are read. */
function counted<T>(items: T[]): { list: T[]; reads: () => number } {
  let reads = 0;
  const list = new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key !== '' && !Number.isNaN(Number(key))) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { list, reads: () => reads };
}

/** An edge type that counts how often its fields are read. */
function countedType(type: StoredEdgeType): { type: StoredEdgeType; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(type, {
    get(target, key, receiver) {
      reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { type: proxy, reads: () => reads };
}

const range = (n: number, name: string) => Array.from({ length: n }, (_, i) => `${name}${i}`);
const N = 400;

describe('an upsert looks each name up once', () => {
  it("a payload naming every vertex type of a graph reads the graph's list of types once", () => {
    const types = range(N, 'T');
    const store = storeWith([...types.map((t) => `CREATE VERTEX ${t} (PRIMARY_ID id STRING)`), 'CREATE GRAPH g (*)']);
    const graph = store.graph('g', '/');
    const vertexTypes = counted(graph.vertexTypes);
    const body = { vertices: Object.fromEntries(types.map((t) => [t, { x: {} }])) };
    const plan = planUpsert(store, { ...graph, vertexTypes: vertexTypes.list }, body);
    assert.equal(plan.vertices.length, N);
    // Looking each name up in the list read it N²/2 times.
    assert.ok(vertexTypes.reads() <= 2 * N, `${vertexTypes.reads()} reads of a list of ${N} types`);
  });

  it('a payload of edges between every pair of an edge type reads its pairs once', () => {
    const types = range(N, 'V');
    const pairs = types.map((t) => `FROM ${t}, TO ${t}`).join(' | ');
    const store = storeWith([
      ...types.map((t) => `CREATE VERTEX ${t} (PRIMARY_ID id STRING)`),
      `CREATE DIRECTED EDGE E (${pairs})`,
      'CREATE GRAPH g (*)',
    ]);
    const type = store.catalog.edgeTypes.get('E')!;
    const listed = counted(type.pairs);
    type.pairs = listed.list;
    const body = { edges: Object.fromEntries(types.map((t) => [t, { a: { E: { [t]: { b: {} } } } }])) };
    const plan = planUpsert(store, store.graph('g', '/'), body);
    assert.equal(plan.edges.length, N);
    assert.ok(listed.reads() <= 2 * N, `${listed.reads()} reads of ${N} pairs`);
  });

  it('operations on existing vertices read the attribute definitions once, not once per value', () => {
    const attrs = range(N, 'a');
    const store = storeWith([
      `CREATE VERTEX P (PRIMARY_ID id STRING, ${attrs.map((a) => `${a} INT`).join(', ')})`,
      'CREATE GRAPH g (*)',
    ]);
    const graph = store.graph('g', '/');
    const ids = range(20, 'p');
    const values = (op?: string) => Object.fromEntries(attrs.map((a) => [a, { value: 1, ...(op ? { op } : {}) }]));
    const body = (op?: string) => ({ vertices: { P: Object.fromEntries(ids.map((id) => [id, values(op)])) } });
    writeUpsert(store, planUpsert(store, graph, body()));

    const type = store.catalog.vertexTypes.get('P')!;
    const listed = counted(type.attributes);
    type.attributes = listed.list;
    const result = writeUpsert(store, planUpsert(store, graph, body('+')));
    assert.equal(result.accepted_vertices, ids.length);
    assert.equal(
      JSON.parse(store.db.prepare(`SELECT attrs FROM vertices WHERE id = 'p3'`).pluck().get() as string).a9,
      2,
    );
    // Finding each value's definition in the list read it once per value: 20 × N²/2 times.
    assert.ok(listed.reads() <= 3 * N, `${listed.reads()} reads of ${N} attribute definitions`);
  });
});

describe("a vertex's edges are read once, whatever the number of edge names", () => {
  it('each edge name looks at its own rows only', () => {
    const edges = range(N, 'E');
    const store = storeWith([
      'CREATE VERTEX P (PRIMARY_ID id STRING)',
      ...edges.map((e, i) => `CREATE ${i % 2 ? 'UNDIRECTED' : 'DIRECTED'} EDGE ${e} (FROM P, TO P)`),
      'CREATE GRAPH g (*)',
    ]);
    const graph = store.graph('g', '/');
    // One edge of each type leaves `a`: N edge names, N rows.
    writeUpsert(
      store,
      planUpsert(store, graph, { edges: { P: { a: Object.fromEntries(edges.map((e) => [e, { P: { b: {} } }])) } } }),
    );
    const source = store.catalog.vertexTypes.get('P')!;
    let reads = 0;
    const views = viewsFrom(store, graph, source).map((view) => {
      const type = countedType(view.type);
      return { ...view, type: type.type, reads: type.reads };
    });
    const found = selectEdges(store, { source: { type: source, id: 'a' }, views });
    assert.equal([...found.values()].flat().length, N);
    for (const view of views) reads += view.reads();
    // Matching every row against every edge name read the types N² times.
    assert.ok(reads <= 8 * N, `${reads} reads of ${N} edge types`);
  });
});
