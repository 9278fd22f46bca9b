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
      // About 100 pages: far under the writer's own threshold, so only a checkpoint here copies them.
      writeVertices(store, 0, 2000);
      assert.equal(fs.statSync(store.db.name).size, before);
      await checkpoints.idle();
      assert.ok(fs.statSync(store.db.name).size > before + 300_000, String(fs.statSync(store.db.name).size));
      assert.equal(checkpoints.threadRunning, true);
      // Commits while one runs are taken by the next.
      for (let i = 1; i <= 5; i++) writeVertices(store, i * 2000, 2000);
      await checkpoints.idle();
      const copied = fs.statSync(store.db.name).size;
      assert.ok(copied > before + 6 * 300_000, String(copied));
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
    const checkpoints = BackgroundCheckpoints.attach(store);
    // The writer keeps its open file; the thread finds no file under the name.
    fs.renameSync(store.db.name, `${store.db.name}.moved`);
    writeVertices(store, 0, 10);
    await checkpoints.idle();
    assert.equal(autocheckpoint(store), 1000);
    assert.equal(store.afterCommit, undefined);
    writeVertices(store, 10, 10);
    assert.equal(checkpoints.threadRunning, false);
    await checkpoints.close();
    store.close();
  });
});
