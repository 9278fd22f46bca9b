import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../../test/helpers/scratch-stores.js';
import { DataPlaneError } from '../errors.js';
import type { GraphStore } from '../graph-store.js';
import { detachedRuns, runDetached } from './detached.js';
import { newRequestId } from './running.js';

const stores = scratchStores('detached');

const forgotten = (store: GraphStore, id: string) =>
  assert.throws(
    () => detachedRuns(store, 'g', id),
    (err: unknown) => err instanceof DataPlaneError && err.kind === 'invalidParameter' && err.message.includes(id),
  );

/** Keeps a run detached as the routes do; its id. */
const detach = (store: GraphStore, results: Promise<unknown[]>, keptBytes?: number) => {
  const requestid = newRequestId();
  const unexpected = (err: unknown) => assert.fail(String(err));
  runDetached(store, { requestid, graph: 'g', started: Date.now() }, 'q', results, unexpected, keptBytes);
  return requestid;
};
/** One turn of the event loop: the outcomes of settled runs are kept by then. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('detached query runs', () => {
  it('forgets the oldest runs once the kept results pass their byte budget, keeping the newest', async () => {
    const store = stores.open();
    const answer = (n: number) => Promise.resolve([{ text: 'x'.repeat(n) }]);
    // Each answer is 40 characters of JSON or more; 100 bytes hold two of them.
    const ids = [30, 30, 30].map((n) => detach(store, answer(n), 100));
    await turn();
    forgotten(store, ids[0]!);
    assert.deepEqual(
      detachedRuns(store, 'g', 'all').map((r) => r.requestid),
      ids.slice(1),
    );
    // One answer larger than the whole budget is kept alone.
    const big = detach(store, answer(500), 100);
    await turn();
    assert.deepEqual(
      detachedRuns(store, 'g', 'all').map((r) => r.requestid),
      [big],
    );
    assert.deepEqual(JSON.parse(detachedRuns(store, 'g', big)[0]!.results!), [{ text: 'x'.repeat(500) }]);
  });

  it('keeps the last hundred finished runs of a store, and every run still going', async () => {
    const store = stores.open();
    let finish!: (results: unknown[]) => void;
    const going = detach(store, new Promise((resolve) => (finish = resolve)));
    const ids = Array.from({ length: 101 }, () => detach(store, Promise.resolve([])));
    await turn();
    forgotten(store, ids[0]!);
    assert.equal(detachedRuns(store, 'g', 'all').length, 101);
    const [run] = detachedRuns(store, 'g', going);
    assert.deepEqual([run!.status, run!.endTime], ['running', '']);
    finish([{ done: true }]);
    await turn();
    assert.equal(detachedRuns(store, 'g', going)[0]!.status, 'success');
    assert.match(detachedRuns(store, 'g', going)[0]!.endTime, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    // Finished, it is the newest and stays; the oldest of the others goes.
    forgotten(store, ids[1]!);
    assert.equal(detachedRuns(store, 'g', 'all').length, 100);
  });

  it("keeps a refusal as the run's outcome", async () => {
    const store = stores.open();
    const id = detach(store, Promise.reject(new DataPlaneError('queryTimeout', 'too slow')));
    await turn();
    const [run] = detachedRuns(store, 'g', id);
    assert.deepEqual([run!.status, run!.error], ['aborted', { kind: 'queryTimeout', message: 'too slow' }]);
  });

  it('gives ids that do not follow one another', () => {
    const ids = Array.from({ length: 100 }, () => newRequestId());
    const counters = ids.map((id) => Number(id.split('.')[0]));
    assert.ok(
      counters.every((c, i) => i === 0 || Math.abs(c - counters[i - 1]!) !== 1),
      counters.join(' '),
    );
    assert.equal(new Set(ids).size, ids.length);
    assert.match(ids[0]!, /^\d+\.RESTPP_1_1\.\d+\.N$/);
  });
});
