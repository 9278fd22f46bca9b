import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { resultOf, type AcaciaClient, type WorkspaceRecord } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { slowestAnswerDuring } from './helpers/responsiveness.js';
import { freshStore, startTestServer, storeName, type StoreLocation, type TestServer } from './helpers/server.js';
import { hostTarget, TigerGraphReplay, type Auth } from './helpers/tigergraph-client.js';
import { newWorkgroup } from './helpers/workspaces.js';

/**
 * Backups, restores and counts of a workspace's graph take time with its size, and opening a
 * store may wait for a write in progress: both are the tenant's to make long. With the local
 * driver this work is done off the event loop that the API, the gateway and the engine share:
 * while a graph of some 330 MB is backed up, counted and restored, or a backup waits for a
 * long write, the API answers within a second. (Done on that loop, the restore alone held it
 * for about two seconds, and the backup waited for the write up to its ten-second busy timeout.)
 */

const alice = { username: 'alice', password: 'Graph-Secret-42' };
const basic: Auth = { auth: alice };
const localEnv = { ACACIA_DRIVER: 'local', ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' };

/** Documents of 4,000 characters: 80,000 of them make a store file of some 330 MB. */
const DOCS = 80_000;
const TEXT = 4_000;

async function waitFor(c: AcaciaClient, wg: string, ws: string, until: (w: WorkspaceRecord) => boolean, what: string) {
  const last = await c.waitForWorkspace(wg, ws, until, { attempts: 1200, intervalMs: 25 });
  assert.ok(last && until(last), `workspace ${ws} never became ${what}: ${JSON.stringify(last)}`);
  return last;
}

/**
 * Writes the documents straight into the workspace's store file, from a connection of the
 * test's own (the data-plane process serving it sees them at its next read): loading them
 * through the gateway would take the test far longer.
 */
function fillGraph(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 10000');
    db.pragma('synchronous = OFF');
    const typeId = db.prepare(`SELECT id FROM vertex_types WHERE name = 'Doc'`).pluck().get() as number;
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO vertices (type_id, id, attrs) SELECT ?, 'd' || i, printf('{"text":"%.*c"}', ?, 'x') FROM n`,
    ).run(DOCS, typeId, TEXT);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

describe(`local driver: backups and restores off the event loop (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  let ws: WorkspaceRecord;
  let tg: TigerGraphReplay;

  let location: StoreLocation;
  /** A copy a crash cut short, as an earlier version named it, in a database's backups. */
  let leftOver: string;

  before(async () => {
    location = await freshStore();
    leftOver = path.join(location.dataDir, 'graphs', 'a-database', 'backups', '.a-backup.db.0123456789ab.partial');
    fs.mkdirSync(path.dirname(leftOver), { recursive: true });
    fs.writeFileSync(leftOver, 'half a copy');
    server = await startTestServer(localEnv, location);
    c = server.client;
    wg = await newWorkgroup(c, 'large');
    const created = resultOf(await c.workspaces.create(wg, { name: 'large-graph' }));
    ws = await waitFor(c, wg, created.workspace_id!, (w) => w.status === 'Active', 'Active');
    assertOk(await c.dbUsers.create(wg, ws.workspace_id!, alice));
    tg = new TigerGraphReplay(hostTarget(server.running.gatewayUrl, ws.proxy_host!));
    const defined = await tg.gsql4(
      basic,
      'CREATE VERTEX Doc (PRIMARY_ID id STRING, text STRING)\nCREATE GRAPH docs (*)',
    );
    assert.match(defined.text, /The graph docs is created/);
  });
  after(async () => {
    await server?.close();
    await location?.dispose();
  });

  const graphFile = () => path.join(server.store.dataDir, 'graphs', ws.database_id!, 'graph.db');

  /** Polls until the backup is no longer InProgress; it must have Succeeded. */
  async function taken(backupId: string) {
    let backup;
    for (let i = 0; i < 1200 && !backup; i++) {
      backup = resultOf(await c.backups.listByWorkspace(ws.workspace_id!)).find(
        (b) => b.id === backupId && b.status !== 'InProgress',
      );
      if (!backup) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(backup?.status, 'Succeeded', JSON.stringify(backup));
    return backup;
  }

  it('a partial copy a crash left is removed at start', async () => {
    for (let i = 0; i < 1200 && fs.existsSync(leftOver); i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(fs.existsSync(leftOver), false);
  });

  it('a backup waits for a long write to the store without holding up the API', async () => {
    const id = ws.workspace_id!;
    // The write lock, held as a long write of the tenant's holds it (an upsert of millions).
    const writer = new Database(graphFile());
    writer.exec('BEGIN IMMEDIATE');
    try {
      const { slowestMs } = await slowestAnswerDuring(`${server.url}/healthz`, async () => {
        const backup = assertOk(await c.backups.create(wg, id, { tag: 'during-a-write' }));
        // The step has begun once it made the backups' folder: the API answers while it waits.
        const folder = path.join(path.dirname(graphFile()), 'backups');
        for (let i = 0; i < 1200 && !fs.existsSync(folder); i++) await new Promise((r) => setTimeout(r, 25));
        for (let i = 0; i < 10; i++) assertOk(await c.workspaces.get(wg, id));
        writer.exec('COMMIT');
        await taken(backup.id);
      });
      assert.ok(slowestMs < 1000, `/healthz waited ${Math.round(slowestMs)} ms`);
    } finally {
      if (writer.inTransaction) writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('a backup, a count and a restore of a large graph: the API answers within a second throughout', async () => {
    const id = ws.workspace_id!;
    fillGraph(graphFile());
    const docs = async () => {
      const res = await tg.request('GET', '/restpp/graph/docs/vertices/Doc?count_only=true', basic);
      assert.equal(res.status, 200, res.text);
      return (res.json.results as { count: number }[])[0]!.count;
    };
    const { slowestMs, probes } = await slowestAnswerDuring(`${server.url}/healthz`, async () => {
      const backup = assertOk(await c.backups.create(wg, id, { tag: 'large' }));
      const copy = await taken(backup.id);
      assert.ok(Number(copy.size_bytes) > 300e6, `a backup of ${copy.size_bytes} bytes`);

      // The reconciler's next look counts the graph.
      assertOk(await c.moveClock({ advance_seconds: 31 }));
      const counted = await waitFor(c, wg, id, (w) => w.vertex_count === DOCS, 'counted');
      assert.ok(counted.graph_topology_size_bytes! > 300e6);

      const deleted = await tg.request('DELETE', '/restpp/graph/docs/vertices/Doc/d7', basic);
      assert.equal(deleted.status, 200, deleted.text);
      assert.equal(await docs(), DOCS - 1);
      assertOk(await c.backups.restore(wg, id, { backup_id: backup.id }));
      await waitFor(c, wg, id, (w) => w.status === 'Active' && w.condition_type === 'Normal', 'restored');
    });
    assert.equal(await docs(), DOCS, 'the restore brought the deleted document back');
    assert.ok(probes > 10, `${probes} answers`);
    assert.ok(slowestMs < 1000, `/healthz waited ${Math.round(slowestMs)} ms`);
  });
});
