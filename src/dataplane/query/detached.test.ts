import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../../test/helpers/scratch-stores.js';
import { DataPlaneError } from '../errors.js';
import type { GraphStore } from '../graph-store.js';
import { detachedRuns, runDetached } from './detached.js';

const stores = scratchStores('detached');

const forgotten = (store: GraphStore, id: string) =>
  assert.throws(
    () => detachedRuns(store, 'g', id),
    (err: unknown) => err instanceof DataPlaneError && err.kind === 'invalidParameter' && err.message.includes(id),
  );

describe('detached query runs', () => {
  it('forgets the oldest runs once the kept results pass their byte budget, keeping the newest', () => {
    const store = stores.open();
    const answer = (n: number) => () => [{ text: 'x'.repeat(n) }];
    // Each answer is 40 characters of JSON or more; 100 bytes hold two of them.
    const ids = [30, 30, 30].map((n) => runDetached(store, 'g', 'q', answer(n), 100));
    forgotten(store, ids[0]!);
    assert.deepEqual(
      detachedRuns(store, 'g', 'all').map((r) => r.requestid),
      ids.slice(1),
    );
    // One answer larger than the whole budget is kept alone.
    const big = runDetached(store, 'g', 'q', answer(500), 100);
    assert.deepEqual(
      detachedRuns(store, 'g', 'all').map((r) => r.requestid),
      [big],
    );
    assert.deepEqual(JSON.parse(detachedRuns(store, 'g', big)[0]!.results!), [{ text: 'x'.repeat(500) }]);
  });

  it('keeps the last hundred runs of a store, under ids that do not follow one another', () => {
    const store = stores.open();
    const ids = Array.from({ length: 101 }, () => runDetached(store, 'g', 'q', () => []));
    forgotten(store, ids[0]!);
    assert.equal(detachedRuns(store, 'g', 'all').length, 100);
    const counters = ids.map((id) => Number(id.split('.')[0]));
    assert.ok(
      counters.every((c, i) => i === 0 || Math.abs(c - counters[i - 1]!) !== 1),
      counters.join(' '),
    );
    assert.equal(new Set(ids).size, ids.length);
    assert.match(ids[0]!, /^\d+\.RESTPP_1_1\.\d+\.N$/);
  });
});
