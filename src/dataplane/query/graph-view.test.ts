import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../../test/helpers/scratch-stores.js';
import type { GraphStore } from '../graph-store.js';
import { planUpsert } from '../upsert-plan.js';
import { writeUpsert, type UpsertOptions } from '../upsert-write.js';
import { checkJob, filePlan } from '../loading/job-compile.js';
import { loadFile } from '../loading/job-load.js';
import { findJob } from '../loading/job-store.js';
import { GraphView, graphView, toEpoch, writingUpsert } from './graph-view.js';

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
  return writingUpsert(store, plan, () => writeUpsert(store, plan, opts));
}

/**
 * Everything a view holds, in a form that does not depend on the order of gids and edge ids:
 * each vertex with its values, each type's vertices, and each adjacency as (type, from, to,
 * edge values) lines.
 */
function canonical(view: GraphView) {
  const name = (gid: number) => `${view.vertexTypes[view.typeOf[gid]!]!.name}:${view.ids[gid]}`;
  const vertices = view.ids.map((id, gid) => {
    const type = view.vertexTypes[view.typeOf[gid]!]!;
    assert.equal(view.find(type.name, id), gid);
    return [name(gid), Object.fromEntries(type.attributes.map((a) => [a.name, view.attrs.get(a.name)![gid]]))];
  });
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
