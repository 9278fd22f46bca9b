import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';

describe(`internal errors (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('a store failure is a 500 Internal-Error, reason generic; the detail is logged under the RequestID', async () => {
    const db = server.running.services.store.db;
    // A table the request needs goes missing under the running server.
    await sql`alter table workgroups rename to workgroups_away`.execute(db);
    try {
      const res = await server.client.request('GET', '/controller/v4/v2/workgroups', {
        headers: { 'x-request-id': 'broken-store-1' },
      });
      assertError(res, 500, 'Internal-Error', '');
      assert.equal(res.body.RequestID, 'broken-store-1');
      assert.equal(res.body.Message, 'Internal error.');
      assert.doesNotMatch(
        JSON.stringify(res.body),
        /workgroups|table|relation|SQL/i,
        'no store detail reaches the client',
      );
      const logged = server.logs
        .map((l) => JSON.parse(l) as { reqId?: string; level?: number; err?: { message?: string } })
        .find((l) => l.reqId === 'broken-store-1' && l.level === 50);
      assert.match(logged?.err?.message ?? '', /workgroups/, 'the cause is in the log, under the same request ID');
    } finally {
      await sql`alter table workgroups_away rename to workgroups`.execute(db);
    }
    assertOk(await server.client.workgroups.list());
  });
});
