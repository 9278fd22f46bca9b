import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import { GraphStore } from './graph-store.js';
import { runGsql } from './gsql-runner.js';
import { readStoreStats, removeAbandonedPartials, restoreStore, snapshotStore } from './snapshot.js';
import { planUpsert } from './upsert-plan.js';
import { writeUpsert } from './upsert-write.js';

const { dir, file } = scratchStores('snapshot');

function seeded(people: number): GraphStore {
  const store = GraphStore.open(file('graph.db'));
  assert.ok(
    runGsql(
      store,
      'CREATE VERTEX P (PRIMARY_ID id STRING, n INT)\nCREATE DIRECTED EDGE knows (FROM P, TO P)\nCREATE GRAPH g (*)',
    ).ok,
  );
  add(store, 0, people);
  return store;
}

function add(store: GraphStore, from: number, count: number): void {
  const vertices = Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${from + i}`, { n: { value: i } }]));
  const edges = {
    P: { [`p${from}`]: { knows: { P: Object.fromEntries(Object.keys(vertices).map((id) => [id, {}])) } } },
  };
  writeUpsert(store, planUpsert(store, store.graph('g', '/'), { vertices: { P: vertices }, edges }));
}

describe('readStoreStats', () => {
  it('counts vertices and edges from the data, from a connection of its own', () => {
    const store = seeded(300);
    const stats = readStoreStats(store.db.name);
    assert.equal(stats.vertex_count, 300);
    assert.equal(stats.edge_count, 300);
    assert.ok(stats.graph_topology_size_bytes > 0 && stats.graph_topology_size_bytes <= stats.store_file_bytes);
    add(store, 300, 1000);
    const grown = readStoreStats(store.db.name);
    assert.equal(grown.vertex_count, 1300);
    assert.ok(grown.graph_topology_size_bytes > stats.graph_topology_size_bytes, 'the size follows the data');
    store.close();
  });
});

describe('snapshotStore', () => {
  it('copies the last committed state while the serving connection is in the middle of a write', () => {
    const store = seeded(100);
    const snap = file('snap.db');
    // A transaction is open on the serving connection when the snapshot is taken: not committed, not copied.
    store.db.exec('BEGIN IMMEDIATE');
    store.db.prepare(`INSERT INTO vertices (type_id, id, attrs) VALUES (1, 'uncommitted', '{"n":0}')`).run();
    const { size_bytes } = snapshotStore(store.db.name, snap);
    store.db.exec('COMMIT');
    assert.equal(size_bytes, fs.statSync(snap).size);
    assert.equal(readStoreStats(snap).vertex_count, 100);
    assert.equal(readStoreStats(store.db.name).vertex_count, 101);
    assert.throws(() => snapshotStore(store.db.name, snap), /already exists/, 'a snapshot never overwrites a file');
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.includes('.partial')),
      [],
      'no partial file is left behind',
    );
    const ro = GraphStore.open(snap, { readOnly: true });
    assert.deepEqual([...ro.catalog.graphs.keys()], ['g'], 'a read-only process can serve the snapshot as it is');
    ro.close();
    store.close();
  });
});

describe('partial copies', () => {
  const hostTag = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
  /** The pid of a process that has exited. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

  it('a copy removes those whose writer died, and keeps those being written', () => {
    const store = seeded(5);
    const folder = fs.mkdtempSync(path.join(dir, 'copies-'));
    const names = {
      // The name an earlier version gave: it wrote one only within a call that renamed or removed it.
      earlier: '.b1.db.0123456789ab.partial',
      dead: `.b2.db.${deadPid()}-${hostTag}-0123456789ab.partial`,
      // Being written: by a running process (the one that runs this test's runner), or by this one.
      running: `.b3.db.${process.ppid}-${hostTag}-0123456789ab.partial`,
      mine: `.b4.db.${process.pid}-${hostTag}-0123456789ab.partial`,
      otherHost: `.b5.db.${deadPid()}-00000000-0123456789ab.partial`,
      notPartial: '.b6.db',
    };
    for (const name of Object.values(names)) fs.writeFileSync(path.join(folder, name), 'half a copy');
    snapshotStore(store.db.name, path.join(folder, 'b7.db'));
    assert.deepEqual(
      fs.readdirSync(folder).sort(),
      [names.running, names.mine, names.otherHost, names.notPartial, 'b7.db'].sort(),
    );
    assert.equal(removeAbandonedPartials(path.join(folder, 'missing')), 0, 'a folder not made yet has none');
    store.close();
  });
});

describe('restoreStore', () => {
  it('replaces schema and data, and a process serving the file sees the new graph at its next request', () => {
    const store = seeded(50);
    const snap = file('snap.db');
    snapshotStore(store.db.name, snap);
    const versionAtSnapshot = store.catalog.version;
    add(store, 50, 25);
    assert.ok(runGsql(store, 'CREATE VERTEX Later (PRIMARY_ID id STRING)').ok);

    restoreStore(snap, store.db.name);
    store.refresh();
    assert.equal(store.counts().vertex_count, 50);
    assert.equal(store.catalog.vertexTypes.has('Later'), false, 'the schema came back too');
    assert.ok(store.catalog.version > versionAtSnapshot + 1, 'the schema version moved on');
    store.close();
  });

  it('creates the store file when it does not exist, and refuses a file that is not a store', () => {
    const store = seeded(10);
    const snap = file('snap.db');
    snapshotStore(store.db.name, snap);
    store.close();
    const fresh = file('fresh.db');
    restoreStore(snap, fresh);
    assert.equal(readStoreStats(fresh).vertex_count, 10);
    const junk = file('junk.db');
    fs.writeFileSync(junk, '');
    assert.throws(() => restoreStore(junk, fresh), /not a graph store|no such table/);
    assert.equal(readStoreStats(fresh).vertex_count, 10, 'a refused restore changes nothing');
  });
});

describe('file modes', () => {
  const mode = (name: string) => (fs.statSync(name).mode & 0o777).toString(8);

  it("makes stores and snapshots the owner's only, and narrows a store an earlier version left open", () => {
    const store = seeded(3);
    const name = store.db.name;
    assert.deepEqual([mode(name), mode(`${name}-wal`), mode(`${name}-shm`)], ['600', '600', '600']);
    const copy = file('snapshot.db');
    snapshotStore(name, copy);
    assert.equal(mode(copy), '600');
    store.close();

    const old = file('old.db');
    fs.copyFileSync(copy, old);
    fs.chmodSync(old, 0o644);
    GraphStore.open(old).close();
    assert.equal(mode(old), '600');
  });
});
