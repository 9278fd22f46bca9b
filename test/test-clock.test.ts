import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

/** RFC 3339 as Acacia writes it: a four-digit year, whole seconds, Z. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** The latest time the manual clock takes. */
const LATEST = '2900-01-01T00:00:00Z';

describe(`manual clock bounds (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
  });
  after(() => server.close());

  const clockNow = async () => assertOk(await server.client.moveClock({ advance_seconds: 0 })).now;

  it('refuses a time past the bound, naming the field, and leaves the clock where it was', async () => {
    const client = server.client;
    const before = await clockNow();
    for (const now of ['9999-12-31T23:59:59Z', '2900-01-01T00:00:01Z', '2900-01-01T01:00:00+00:59']) {
      assertError(await client.moveClock({ now }), 400, 'Bad-Request', 'now');
      assertError(await client.moveClock({ now, skip_due: true }), 400, 'Bad-Request', 'now');
    }
    // The date-time format admits a leap second, which no JavaScript date holds.
    assertError(await client.moveClock({ now: '2058-06-30T23:59:60Z' }), 400, 'Bad-Request', 'now');
    assert.equal(await clockNow(), before);
  });

  it('keeps every timestamp derived near the bound RFC 3339, and refuses to move past it', async () => {
    const client = server.client;
    assertOk(await client.moveClock({ now: '2899-12-01T00:00:00Z', skip_due: true }));

    // The longest horizons: a key living ten years, a cron firing only on 29 February.
    const key = assertOk(
      await client.apiKeys.create({ key_name: 'decade', role: 'viewer', life_time_in_seconds: 10 * 365 * 24 * 3600 }),
    );
    assert.match(key.expires_at!, RFC3339);
    assert.match(key.created_at, RFC3339);
    const wg = await newWorkgroup(client, 'far-future');
    const ws = await activeWorkspace(client, wg, { name: 'far' });
    const schedule = assertOk(
      await client.backups.setSchedule(wg, ws.workspace_id!, { schedule: '0 0 29 2 *', max_backup_files: 1 }),
    );
    assert.match(schedule.next_run_at!, RFC3339);
    assert.ok(schedule.next_run_at!.startsWith('2904-02-29'), schedule.next_run_at);
    const entry = assertOk(
      await client.allowList.create(wg, { cidr: '10.0.0.0/8', expires_at: '2899-12-07T00:00:00Z' }),
    );
    assert.match(entry.expires_at!, RFC3339);

    // Up to the bound itself, stopping at whatever falls due on the way.
    assert.equal(assertOk(await client.moveClock({ now: LATEST })).now, LATEST);
    assertError(await client.moveClock({ advance_seconds: 1 }), 400, 'Bad-Request', 'advance_seconds');
    assertError(await client.moveClock({ advance_seconds: 1, skip_due: true }), 400, 'Bad-Request', 'advance_seconds');
    assertError(await client.moveClock({ now: '2900-01-01T00:00:01Z' }), 400, 'Bad-Request', 'now');
    assert.equal(await clockNow(), LATEST);

    // Everything the API shows at the bound is still RFC 3339 with a four-digit year.
    const shown = JSON.stringify([
      resultOf(await client.workgroups.get(wg)),
      resultOf(await client.workspaces.get(wg, ws.workspace_id!)),
      resultOf(await client.backups.getSchedule(ws.workspace_id!)),
      resultOf(await client.apiKeys.list()),
      resultOf(await client.operations.list()),
    ]);
    assert.doesNotMatch(shown, /[+-]\d{6}-/, 'no expanded (six-digit) years');
    assertOk(await client.apiKeys.create({ key_name: 'at-bound', role: 'viewer', life_time_in_seconds: 315_360_000 }));
  });
});
