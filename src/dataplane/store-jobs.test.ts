import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import { GraphStore } from './graph-store.js';
import { runGsql } from './gsql-runner.js';
import { readStoreStats } from './snapshot.js';
import { StoreJobError, StoreJobs } from './store-jobs.js';
import { planUpsert } from './upsert-plan.js';
import { writeUpsert } from './upsert-write.js';

const { file } = scratchStores('store-jobs');
const jobs = new StoreJobs();
after(() => jobs.close());

function seeded(people: number): GraphStore {
  const store = GraphStore.open(file('graph.db'));
  assert.ok(runGsql(store, 'CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH g (*)').ok);
  const vertices = Object.fromEntries(Array.from({ length: people }, (_, i) => [`p${i}`, {}]));
  writeUpsert(store, planUpsert(store, store.graph('g', '/'), { vertices: { P: vertices } }));
  return store;
}

describe('StoreJobs', () => {
  it('snapshots, restores, counts and creates store files in its threads', async () => {
    const store = seeded(40);
    const snap = file('snap.db');
    assert.deepEqual(await jobs.snapshot(store.db.name, snap), { size_bytes: fs.statSync(snap).size });
    const fresh = await jobs.ensure(file('fresh.db'));
    assert.equal((await jobs.stats(fresh)).vertex_count, 0);
    await jobs.restore(snap, fresh);
    assert.deepEqual(await jobs.stats(fresh), readStoreStats(fresh));
    assert.equal((await jobs.stats(fresh)).vertex_count, 40);
    store.close();
  });

  it('gives back a failure with its message, and runs the next job', async () => {
    const junk = file('junk.db');
    fs.writeFileSync(junk, 'not a database');
    await assert.rejects(jobs.stats(junk), (err: unknown) => {
      assert.ok(err instanceof StoreJobError, String(err));
      assert.match(err.message, /not a database/);
      assert.equal(err.code, 'SQLITE_NOTADB');
      return true;
    });
    await assert.rejects(jobs.snapshot(junk, junk), /already exists/);
    assert.equal((await jobs.stats(await jobs.ensure(file('after.db')))).edge_count, 0);
  });

  it("waits for a store's write lock without holding up the calling thread", async () => {
    const store = seeded(25);
    const snap = file('snap.db');
    await jobs.snapshot(store.db.name, snap);
    writeUpsert(store, planUpsert(store, store.graph('g', '/'), { vertices: { P: { later: {} } } }));

    // This thread holds the write lock the restore needs. Were the restore run on this thread, it
    // would wait for the lock here, and the lock would never be given back.
    store.db.exec('BEGIN IMMEDIATE');
    let restored = false;
    const restoring = jobs.restore(snap, store.db.name).then(() => (restored = true));
    for (let turns = 0; turns < 20; turns++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(restored, false, 'the restore waits for the lock');
    store.db.exec('COMMIT');
    await restoring;
    store.refresh();
    assert.equal(store.counts().vertex_count, 25);
    store.close();
  });

  it('runs jobs beyond its threads in turn, and refuses jobs once closed', async () => {
    const own = new StoreJobs(1);
    const stores = [seeded(3), seeded(5), seeded(7)];
    const counts = await Promise.all(stores.map((s) => own.stats(s.db.name)));
    assert.deepEqual(
      counts.map((c) => c.vertex_count),
      [3, 5, 7],
    );
    await own.close();
    await assert.rejects(own.stats(stores[0]!.db.name), /closed/);
    for (const s of stores) s.close();
  });
});
