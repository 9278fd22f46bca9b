import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../../test/helpers/scratch-stores.js';
import type { GraphStore } from '../graph-store.js';
import { planUpsert } from '../upsert-plan.js';
import { writeUpsert, type UpsertOptions } from '../upsert-write.js';
import { runGsql } from '../gsql-runner.js';
import { checkJob, filePlan } from '../loading/job-compile.js';
import { loadFile } from '../loading/job-load.js';
import { findJob } from '../loading/job-store.js';
import { deleteEdges } from '../edge-ops.js';
import { deleteVertex, deleteVertices, readVertexQuery } from '../vertex-ops.js';
import { GraphView, graphView, toEpoch, writingRows } from './graph-view.js';

const stores = scratchStores('graph-view');

function open(): GraphStore {
  return stores.open(`CREATE VERTEX P (PRIMARY_ID id STRING, name STRING, born DATETIME, tags LIST<STRING>)
CREATE VERTEX Q (PRIMARY_ID id STRING, n INT)
CREATE DIRECTED EDGE E (FROM P, TO P | FROM P, TO Q, w DOUBLE, at DATETIME) WITH REVERSE_EDGE="rev_E"
CREATE UNDIRECTED EDGE U (FROM *, TO *)
CREATE GRAPH g (*)`);
}

/** An upsert of `body` to graph g the way the REST route makes it, telling the view. */
function upsert(store: GraphStore, body: unknown, opts: UpsertOptions = {}) {
  const plan = planUpsert(store, store.catalog.graphs.get('g')!, body);
  return writingRows(store, (touched) => {
    touched?.rows(plan);
    return writeUpsert(store, plan, opts);
  });
}

/** REST++'s delete of one vertex, telling the view. */
function removeVertex(store: GraphStore, type: string, id: string) {
  return writingRows(store, (touched) => deleteVertex(store, store.catalog.vertexTypes.get(type)!, id, touched));
}

/** REST++'s delete of the edges named `edge` from one vertex to another, telling the view. */
function removeEdges(store: GraphStore, edge: string, from: [string, string], to: [string, string]) {
  const type = (name: string) => store.catalog.vertexTypes.get(name)!;
  const sel = {
    source: { type: type(from[0]), id: from[1] },
    views: [store.catalog.edgeViewIn(store.catalog.graphs.get('g')!, edge)!],
    target: { type: type(to[0]), id: to[1] },
  };
  return writingRows(store, (touched) => deleteEdges(store, sel, { conditions: [], sort: [] }, touched));
}

/**
 * Everything a view holds, in a form that does not depend on the order of gids and edge ids:
 * each vertex with its values, each type's vertices, and each adjacency as (type, from, to,
 * edge values) lines.
 */
function canonical(view: GraphView) {
  const name = (gid: number) => `${view.vertexTypes[view.typeOf[gid]!]!.name}:${view.ids[gid]}`;
  // The vertices are those its types list: a deleted vertex's gid stays unused until a build.
  const vertices = view.byType.flatMap((gids) =>
    [...gids].map((gid) => {
      const type = view.vertexTypes[view.typeOf[gid]!]!;
      assert.equal(view.find(type.name, view.ids[gid]!), gid);
      return [name(gid), Object.fromEntries(type.attributes.map((a) => [a.name, view.attrs.get(a.name)![gid]]))];
    }),
  );
  const byType = view.vertexTypes.map((t, i) => [t.name, [...view.byType[i]!].map(name).sort()]);
  const adjacency = (side: 'out' | 'in') =>
    view.edgeTypes.flatMap((et, i) => {
      const { off, nbr, eid } = view[side][i]!;
      assert.equal(off.length, view.size + 1);
      const lines: string[] = [];
      for (let v = 0; v < view.size; v++)
        for (let k = off[v]!; k < off[v + 1]!; k++) {
          const values = et.attributes.map((a) => view.edgeAttrs.get(a.name)![eid[k]!]);
          lines.push(`${et.name} ${name(v)} ${name(nbr[k]!)} ${JSON.stringify(values)}`);
        }
      return lines.sort();
    });
  return {
    vertices: vertices.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    byType,
    out: adjacency('out'),
    in: adjacency('in'),
  };
}

describe('the traversal view after an upsert', () => {
  it('keeps its arrays when only attribute values of vertices it holds changed, with those read again', () => {
    const store = open();
    upsert(store, {
      vertices: { P: { a: { name: { value: 'A' }, tags: { value: ['x'] } }, b: {} } },
      edges: { P: { a: { E: { P: { b: {} } } } } },
    });
    const view = graphView(store);
    const a = view.find('P', 'a');
    assert.equal(view.attrs.get('name')![a], 'A');

    upsert(store, {
      vertices: { P: { a: { name: { value: 'A2' }, born: { value: '2021-02-03 04:05:06' }, tags: { value: ['y'] } } } },
    });
    assert.equal(graphView(store), view, 'the same view, not one built again');
    assert.equal(view.attrs.get('name')![a], 'A2');
    assert.equal(view.attrs.get('born')![a], toEpoch('2021-02-03 04:05:06'));
    // The stored row is read, so an operator's result (a list appended to) is what the view holds.
    upsert(store, { vertices: { P: { a: { tags: { value: ['z'], op: '+' } } } } });
    assert.equal(graphView(store), view);
    assert.deepEqual(view.attrs.get('tags')![a], ['y', 'z']);
  });

  it('takes in new vertices and edges and changed edge values, holding what a new build holds', () => {
    const store = open();
    upsert(store, {
      vertices: { P: { a: { name: { value: 'A' } }, b: {} }, Q: { q1: { n: { value: 1 } } } },
      edges: { P: { a: { E: { P: { b: { w: { value: 1.5 } } }, Q: { q1: {} } }, U: { P: { b: {} } } } } },
    });
    const view = graphView(store);
    // Several upserts before the next query: new vertices of both types (some only as edge ends),
    // new edges of each type, an edge's values changed by an operator, a vertex's values, and an
    // edge that is not written because an end is missing and must exist.
    upsert(store, {
      vertices: { P: { c: { name: { value: 'C' }, born: { value: '2022-01-02 03:04:05' } } }, Q: { q2: {} } },
      edges: {
        P: {
          a: { E: { P: { b: { w: { value: 2, op: '+' } }, c: { at: { value: '2020-05-06 07:08:09' } } } } },
          c: { U: { Q: { q2: {} }, P: { d: {} } } },
        },
      },
    });
    upsert(store, { vertices: { P: { a: { name: { value: 'A2' } } } } });
    upsert(store, { edges: { P: { c: { E: { P: { ghost: {} } } } } } }, { vertexMustExist: true });
    upsert(store, { edges: { Q: { q2: { U: { Q: { q3: {} } } } } } });

    const kept = graphView(store);
    assert.equal(kept, view, 'the same view, not one built again');
    assert.deepEqual(canonical(kept), canonical(GraphView.build(store)));
    const c = kept.find('P', 'c');
    const et = kept.etIndex.get('E')!;
    assert.ok(c >= 0 && kept.find('P', 'ghost') < 0);
    assert.equal(kept.edgeAttrs.get('w')![kept.out[et]!.eid[kept.out[et]!.off[kept.find('P', 'a')]!]!], 3.5);
    assert.equal(kept.in[et]!.off[c + 1]! - kept.in[et]!.off[c]!, 1, "c's edge in from a");
    // Per-vertex arrays a run borrows are as long as the view is now.
    assert.equal(kept.scratch.size, kept.size);
  });

  it('takes in what a small load wrote, and is built again after a load too large to take in', () => {
    const store = stores.open(`CREATE VERTEX P (PRIMARY_ID id STRING, name STRING)
CREATE DIRECTED EDGE E (FROM P, TO P, w DOUBLE)
CREATE GRAPH g (*)
CREATE LOADING JOB people FOR GRAPH g {
  DEFINE FILENAME f;
  LOAD f TO VERTEX P VALUES ($0, $1), TO EDGE E VALUES ($0, $2, $3);
}`);
    const load = (text: string) => {
      const job = findJob(store, 'people')!;
      return loadFile(store, checkJob(store, job), filePlan(job, 'f')!, [text]);
    };
    load('a,A,b,1\n');
    const view = graphView(store);
    // A new vertex, a new edge end, a vertex's value changed, an edge's value changed, new edges.
    load('c,C,a,2\na,A2,d,3\na,A2,b,4\n');
    const kept = graphView(store);
    assert.equal(kept, view, 'the same view, not one built again');
    assert.deepEqual(canonical(kept), canonical(GraphView.build(store)));
    assert.equal(kept.attrs.get('name')![kept.find('P', 'a')], 'A2');
    // More rows than a view takes in (1,024 on a graph this small): the next query builds it again.
    load(Array.from({ length: 1100 }, (_, i) => `v${i},V,a,${i}`).join('\n'));
    const rebuilt = graphView(store);
    assert.notEqual(rebuilt, kept);
    assert.equal(rebuilt.size, 4 + 1100);
  });

  it('is built again after a write it was not told of, or an upsert too large to take in', () => {
    const store = open();
    upsert(store, { vertices: { P: { a: {}, b: {} } } });
    const first = graphView(store);
    // An edge written without the view knowing: the view is stale, and an upsert it is told of after keeps it so.
    writeUpsert(
      store,
      planUpsert(store, store.catalog.graphs.get('g')!, { edges: { P: { a: { E: { P: { b: {} } } } } } }),
    );
    upsert(store, { vertices: { P: { c: { name: { value: 'C' } } } } });
    const second = graphView(store);
    assert.notEqual(second, first);
    assert.equal(second.out[second.etIndex.get('E')!]!.nbr.length, 1);
    assert.equal(second.attrs.get('name')![second.find('P', 'c')], 'C');

    const many = Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [`v${i}`, {}]));
    upsert(store, { vertices: { P: many } });
    const third = graphView(store);
    assert.notEqual(third, second);
    assert.equal(third.size, 1103);
  });
});

describe('the traversal view after a delete', () => {
  /** A graph with edges of every kind at `a`: out, in, undirected, to another type, and a self loop. */
  function graph(): GraphStore {
    const store = open();
    upsert(store, {
      vertices: { P: { a: { name: { value: 'A' } }, b: {}, c: {} }, Q: { q1: { n: { value: 1 } } } },
      edges: {
        P: {
          a: { E: { P: { b: { w: { value: 1 } }, a: {} }, Q: { q1: {} } }, U: { P: { c: {} } } },
          b: { E: { P: { a: {}, c: { w: { value: 2 } } } }, U: { Q: { q1: {} } } },
          c: { E: { P: { b: {} } } },
        },
      },
    });
    return store;
  }

  it('drops a deleted vertex with every edge it had, and deleted edges, holding what a new build holds', () => {
    const store = graph();
    const view = graphView(store);
    assert.equal(removeVertex(store, 'P', 'a'), 1);
    // The edge b→c deleted through its reverse name, and an undirected edge from its other end.
    assert.deepEqual(removeEdges(store, 'rev_E', ['P', 'c'], ['P', 'b']), [{ e_type: 'rev_E', deleted_edges: 1 }]);
    assert.deepEqual(removeEdges(store, 'U', ['Q', 'q1'], ['P', 'b']), [{ e_type: 'U', deleted_edges: 1 }]);
    const kept = graphView(store);
    assert.equal(kept, view, 'the same view, not one built again');
    assert.deepEqual(canonical(kept), canonical(GraphView.build(store)));
    assert.equal(kept.find('P', 'a'), -1);
    assert.deepEqual(canonical(kept).out, ['E P:c P:b [0,0]']);
    // Degrees and per-vertex arrays are those of the arrays now.
    assert.equal(kept.scratch.size, kept.size);
  });

  it('follows the writes made between two queries in the order they were made', () => {
    const store = graph();
    const view = graphView(store);
    // Deleted, then made again with no edges: the edges it had stay gone.
    removeVertex(store, 'P', 'b');
    upsert(store, { vertices: { P: { b: { name: { value: 'B2' } } } } });
    // An edge added, its end deleted, and the same edge added again.
    upsert(store, { edges: { P: { c: { E: { Q: { q2: { w: { value: 5 } } } } } } } });
    removeVertex(store, 'Q', 'q2');
    upsert(store, { edges: { P: { c: { E: { Q: { q2: { w: { value: 6 } } } } } } } });
    // An edge added, then deleted.
    upsert(store, { edges: { P: { a: { E: { P: { c: {} } } } } } });
    removeEdges(store, 'E', ['P', 'a'], ['P', 'c']);
    const kept = graphView(store);
    assert.equal(kept, view, 'the same view, not one built again');
    assert.deepEqual(canonical(kept), canonical(GraphView.build(store)));
    assert.equal(kept.attrs.get('name')![kept.find('P', 'b')], 'B2');
    assert.ok(canonical(kept).out.includes('E P:c Q:q2 [6,0]'));
  });

  it("takes in what a query's DELETEs touched", () => {
    const store = graph();
    const view = graphView(store);
    const r = runGsql(
      store,
      `USE GRAPH g
INTERPRET QUERY () FOR GRAPH g {
  S = SELECT s FROM Q:s WHERE s.n == 1;
  DELETE s FROM S:s;
  T = SELECT t FROM P:s -(E>:e)- P:t WHERE e.w == 2 ACCUM DELETE (e);
}`,
    );
    assert.ok(r.ok, r.output);
    const kept = graphView(store);
    assert.equal(kept, view, 'the same view, not one built again');
    assert.deepEqual(canonical(kept), canonical(GraphView.build(store)));
    assert.equal(kept.find('Q', 'q1'), -1);
    assert.ok(!canonical(kept).out.includes('E P:b P:c [2,0]'));
  });

  it('is built again after a whole type is deleted, or once a quarter of its vertices were dropped', () => {
    const store = graph();
    const first = graphView(store);
    const P = store.catalog.vertexTypes.get('P')!;
    const Q = store.catalog.vertexTypes.get('Q')!;
    writingRows(store, (touched) => deleteVertices(store, Q, readVertexQuery(Q, {}), touched));
    const second = graphView(store);
    assert.notEqual(second, first);
    assert.equal(second.byType[second.vtIndex.get('Q')!]!.length, 0);

    // 1,100 more vertices: a view takes in 1,024 rows, so the next query builds it again.
    upsert(store, { vertices: { P: Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [`v${i}`, {}])) } });
    const third = graphView(store);
    assert.notEqual(third, second);
    // Deleted by a filter that lists them (`limit`): taken in, 1,024 dropped places at most.
    const drop = (limit: number) =>
      writingRows(store, (touched) => deleteVertices(store, P, readVertexQuery(P, { limit: String(limit) }), touched));
    assert.equal(drop(600), 600);
    assert.equal(graphView(store), third);
    assert.deepEqual(canonical(third), canonical(GraphView.build(store)));
    assert.equal(drop(500), 500);
    const fourth = graphView(store);
    assert.notEqual(fourth, third);
    assert.deepEqual(canonical(fourth), canonical(GraphView.build(store)));
  });
});
