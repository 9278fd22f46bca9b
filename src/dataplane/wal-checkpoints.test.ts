import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import type { GraphStore } from './graph-store.js';
import { BackgroundCheckpoints } from './wal-checkpoints.js';

const stores = scratchStores('wal-checkpoints');
const schema = 'CREATE VERTEX P (PRIMARY_ID id STRING, note STRING)\nCREATE GRAPH g (*)';

/** Writes `n` vertices of about 200 bytes each, in one commit. */
function writeVertices(store: GraphStore, from: number, n: number): void {
  const insert = store.db.prepare('INSERT INTO vertices (type_id, id, attrs) VALUES (?, ?, ?)');
  const type = store.catalog.vertexTypes.get('P')!.id;
  store.write(() => {
    for (let i = from; i < from + n; i++) insert.run(type, `v${i}`, JSON.stringify({ note: 'x'.repeat(200) }));
  });
}

const autocheckpoint = (store: GraphStore) => store.db.pragma('wal_autocheckpoint', { simple: true });

describe('checkpoints in the background', () => {
  it('copies what a commit wrote into the database file while the writer goes on', async () => {
    const store = stores.open(schema);
    const checkpoints = BackgroundCheckpoints.attach(store);
    try {
      assert.equal(autocheckpoint(store), 16_384);
      assert.equal(checkpoints.threadRunning, false);
      const before = fs.statSync(store.db.name).size;
      // About 100 pages: under SQLite's own threshold, so no thread starts and nothing is copied yet.
      writeVertices(store, 0, 2000);
      await checkpoints.idle();
      assert.equal(checkpoints.threadRunning, false);
      assert.equal(fs.statSync(store.db.name).size, before);
      // The log past 1,000 pages: a thread starts and copies it, under the writer's own threshold.
      writeVertices(store, 2000, 20_000);
      await checkpoints.idle();
      assert.equal(checkpoints.threadRunning, true);
      const copied = fs.statSync(store.db.name).size;
      assert.ok(copied > before + 4_000_000, String(copied));
      // Commits while one runs are taken by the next.
      for (let i = 0; i < 5; i++) writeVertices(store, 22_000 + i * 2000, 2000);
      await checkpoints.idle();
      assert.ok(fs.statSync(store.db.name).size > copied + 5 * 300_000, String(fs.statSync(store.db.name).size));
    } finally {
      await checkpoints.close();
    }
    assert.equal(checkpoints.threadRunning, false);
    assert.equal(autocheckpoint(store), 1000);
    assert.equal(store.afterCommit, undefined);
    store.close();
  });

  it('leaves checkpoints to the writer when the thread cannot open the store', async () => {
    const store = stores.open(schema);
    // A log file past SQLite's threshold (SQLite checkpoints it itself, and the file keeps its size).
    writeVertices(store, 0, 20_000);
    const checkpoints = BackgroundCheckpoints.attach(store);
    // The writer keeps its open file; the thread finds no file under the name.
    fs.renameSync(store.db.name, `${store.db.name}.moved`);
    writeVertices(store, 20_000, 10);
    await checkpoints.idle();
    assert.equal(autocheckpoint(store), 1000);
    assert.equal(store.afterCommit, undefined);
    assert.equal(checkpoints.threadRunning, false);
    await checkpoints.close();
    store.close();
  });
});
