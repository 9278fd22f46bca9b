import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeQuotaFreeConfig } from '../bench/quota-free-config.js';
import { assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';
import { keyLookupStatements, statementsOf } from './helpers/statements.js';

// The hot paths' statement counts are pinned, so they cannot grow unnoticed: a read of one
// workspace or of a workgroup is the key's lookup and one statement; a metadata change is
// read, lock, update, the record and its event, in one transaction (BEGIN and COMMIT count too).
// PostgreSQL runs no lookup for a key it has seen (keyLookupStatements), and locks the
// organisation a creation counts against with a statement, where SQLite's transaction holds the
// write lock already.
const organisationLockStatements = storeName === 'postgres' ? 1 : 0;

describe(`statements per request (${storeName})`, () => {
  let server: TestServer;
  let wg: string;
  let ws: string;
  let other: string;

  before(async () => {
    server = await startTestServer({
      ACACIA_SERVER_TIMING: 'on',
      ACACIA_SIM_SPEED: '0',
      ACACIA_CONFIG: writeQuotaFreeConfig(mkdtempSync(path.join(os.tmpdir(), 'acacia-counts-'))),
    });
    const c = server.client;
    wg = await newWorkgroup(c);
    for (let i = 0; i < 20; i++) {
      const created = await activeWorkspace(c, wg, { name: `counted-${i}` });
      ws ??= created.workspace_id!;
    }
    // The first read of each kind may learn the store's columns once; the counts are those after.
    await c.workgroups.get(wg);
    await c.workspaces.get(wg, ws);
    other = await newWorkgroup(c);
  });
  after(() => server.close());

  it('reads one workspace with the key lookup and one statement', async () => {
    assert.equal(statementsOf(await server.client.workspaces.get(wg, ws)), keyLookupStatements + 1);
  });

  it('reads a workgroup of 20 workspaces with the key lookup and one statement', async () => {
    const res = await server.client.workgroups.get(wg);
    assert.equal(assertOk(res).workspaces?.length, 20);
    assert.equal(statementsOf(res), keyLookupStatements + 1);
  });

  it('lists workgroups with the key lookup, the page and one statement for their records', async () => {
    assert.equal(statementsOf(await server.client.workgroups.list()), keyLookupStatements + 2);
  });

  it("changes a workspace's metadata in one transaction: five statements, BEGIN and COMMIT", async () => {
    const res = await server.client.workspaces.update(wg, ws, { auto_stop_minutes: 45 });
    assert.equal(assertOk(res).auto_stop_minutes, 45);
    assert.equal(statementsOf(res), keyLookupStatements + 7);
  });

  // The workgroup's read, then in one transaction: the name's check, the databases' count and
  // the new database, the quota's count and the new workspace (in its Creating status), its
  // operation, the record, and the events of all three (built from what the request wrote).
  it('creates a workspace and its database in one transaction: thirteen statements on either store', async () => {
    const res = await server.client.workspaces.create(other, { name: 'counted-new' });
    assert.equal(assertOk(res).status, 'Creating');
    // One of them reads the organisation's billing standing (no new workspaces while out of credit).
    assert.equal(statementsOf(res), keyLookupStatements + organisationLockStatements + 12);
    assert.equal(keyLookupStatements + organisationLockStatements + 12, 13);
  });

  it('sends no Server-Timing unless asked to', async () => {
    const plain = await startTestServer({ ACACIA_SIM_SPEED: '0' });
    try {
      const res = await plain.client.workgroups.list();
      assert.equal(res.status, 200);
      assert.equal(res.headers['server-timing'], undefined);
    } finally {
      await plain.close();
    }
  });
});
