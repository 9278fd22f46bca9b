import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../../test/helpers/scratch-stores.js';
import type { GraphStore } from '../graph-store.js';
import { planUpsert } from '../upsert-plan.js';
import { writeUpsert } from '../upsert-write.js';
import { graphView, toEpoch, writingAttributes } from './graph-view.js';

const stores = scratchStores('graph-view');

function open(): GraphStore {
  return stores.open(`CREATE VERTEX P (PRIMARY_ID id STRING, name STRING, born DATETIME, tags LIST<STRING>)
CREATE DIRECTED EDGE E (FROM P, TO P)
CREATE GRAPH g (*)`);
}

/** An upsert of `body` to graph g the way the REST route makes it, keeping the view where it may. */
function upsert(store: GraphStore, body: unknown) {
  const plan = planUpsert(store, store.catalog.graphs.get('g')!, body);
  return writingAttributes(store, plan.vertices, () => writeUpsert(store, plan));
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
    assert.deepEqual(view.attrs.get('tags')![a], ['y', 'z']);
    assert.equal(graphView(store), view);
  });

  it('is built again when a vertex is new, or when the store was written otherwise since it was built', () => {
    const store = open();
    upsert(store, { vertices: { P: { a: {}, b: {} } } });
    const first = graphView(store);
    upsert(store, { vertices: { P: { c: { name: { value: 'C' } } } } });
    const second = graphView(store);
    assert.notEqual(second, first);
    assert.equal(second.attrs.get('name')![second.find('P', 'c')], 'C');

    // An edge written without the view knowing: the view is stale, and an update of a vertex it holds keeps it so.
    writeUpsert(
      store,
      planUpsert(store, store.catalog.graphs.get('g')!, { edges: { P: { a: { E: { P: { b: {} } } } } } }),
    );
    upsert(store, { vertices: { P: { a: { name: { value: 'A' } } } } });
    const third = graphView(store);
    assert.notEqual(third, second);
    assert.equal(third.out[third.etIndex.get('E')!]!.nbr.length, 1);
    assert.equal(third.attrs.get('name')![third.find('P', 'a')], 'A');
  });
});
