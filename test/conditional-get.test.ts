import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AcaciaClient, ApiResponse } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';
import { keyLookupStatements, statementsOf } from './helpers/statements.js';

/** A 304: the tag, no body, one statement besides the key lookup. */
function assertNotModified(res: ApiResponse<unknown>, etag: string): void {
  assert.equal(res.status, 304);
  assert.equal(res.headers.etag, etag);
  assert.equal(res.body, undefined, 'no body');
  assert.equal(statementsOf(res), keyLookupStatements + 1, 'the key lookup and one statement');
}

describe(`conditional reads (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  let ws: string;

  before(async () => {
    server = await startTestServer({ ACACIA_SERVER_TIMING: 'on', ACACIA_SIM_SPEED: '0' });
    c = server.client;
    wg = await newWorkgroup(c);
    ws = (await activeWorkspace(c, wg, { name: 'conditional' })).workspace_id!;
  });
  after(() => server.close());

  it('answers a workspace 304 while its version is the one held, and 200 with the new tag after a change', async () => {
    const first = await c.workspaces.get(wg, ws);
    const etag = String(first.headers.etag);
    assert.equal(etag, `"${assertOk(first).version_number}"`);
    assertNotModified(await c.workspaces.get(wg, ws, { ifNoneMatch: etag }), etag);
    assertNotModified(await c.workspaces.get(wg, ws, { ifNoneMatch: `W/${etag}, "0"` }), etag);

    assertOk(await c.workspaces.update(wg, ws, { auto_stop_minutes: 50 }));
    const changed = await c.workspaces.get(wg, ws, { ifNoneMatch: etag });
    assert.equal(assertOk(changed).auto_stop_minutes, 50);
    assert.notEqual(changed.headers.etag, etag);
    assert.equal(statementsOf(changed), keyLookupStatements + 2, 'the probe, then the read');
  });

  it('answers a workgroup 304 while its version is the one held', async () => {
    const first = await c.workgroups.get(wg);
    const etag = String(first.headers.etag);
    assertNotModified(await c.workgroups.get(wg, { ifNoneMatch: etag }), etag);
    assertOk(await c.workgroups.update(wg, { workgroup_name: 'conditional-renamed' }));
    assert.equal(assertOk(await c.workgroups.get(wg, { ifNoneMatch: etag })).name, 'conditional-renamed');
  });

  it('never answers 304 for what the caller cannot read: the same 404 as without the header', async () => {
    const etag = String((await c.workspaces.get(wg, ws)).headers.etag);
    const stranger = await server.orgClient('conditional-other', { role: 'viewer' });
    assertError(await stranger.workspaces.get(wg, ws, { ifNoneMatch: etag }), 404, 'Not-Found', 'workgroupID');
    assertError(await stranger.workgroups.get(wg, { ifNoneMatch: '*' }), 404, 'Not-Found', 'workgroupID');
    const missing = '00000000-0000-7000-8000-000000000000';
    assertError(await c.workspaces.get(wg, missing, { ifNoneMatch: '*' }), 404, 'Not-Found', 'workspaceID');
  });
});
