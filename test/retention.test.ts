import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf } from '../src/client/index.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

/**
 * Operations and schedule runs are never finished with otherwise: without a retention,
 * GET /operations (whole without `limit`, as lists are) would list every one ever run.
 */
describe(`operations and schedule runs are kept for ACACIA_OPERATION_RETENTION_HOURS (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({
      ACACIA_SIM_SPEED: '0',
      ACACIA_CLOCK: 'manual',
      ACACIA_OPERATION_RETENTION_HOURS: '72',
    });
    assertOk(await server.client.moveClock({ now: '2055-05-03T00:00:00Z', skip_due: true }));
  });
  after(() => server.close());

  it("prunes finished operations and past runs, not a Failed workspace's failed operation nor a last run", async () => {
    const c = await server.orgClient('retention');
    const wg = await newWorkgroup(c);
    const ws = (await activeWorkspace(c, wg, { name: 'kept' })).workspace_id!;
    const doomed = assertOk(await c.workspaces.create(wg, { name: 'failing', x_test_env: 'fail:create' }));
    await waitForStatus(c, wg, doomed.workspace_id!, 'Failed');
    const schedule = async (body: {
      repeat: 'daily' | 'once';
      time: string;
      action: 'pause' | 'resume';
      date?: string;
    }) => assertOk(await c.schedules.create(wg, ws, { workspace_id: ws, timezone: 'UTC', ...body }));
    const daily = await schedule({ repeat: 'daily', time: '06:00', action: 'pause' });
    const once = await schedule({ repeat: 'once', date: '2055-05-03', time: '12:00', action: 'pause' });
    // Three days of runs: the workspace is paused (by one schedule or the other), resumed after.
    for (const day of ['03', '04', '05']) {
      assertOk(await c.moveClock({ now: `2055-05-${day}T06:30:00Z` }));
      await waitForStatus(c, wg, ws, 'Stopped');
      assertOk(await c.workspaces.resume(wg, ws));
      await waitForStatus(c, wg, ws, 'Active');
    }
    const before = resultOf(await c.operations.list());
    const failedCreate = before.find((o) => o.resource_id === doomed.workspace_id && o.state === 'failed')!;
    const firstCreate = before.find((o) => o.resource_id === ws && o.kind === 'workspace.create')!;
    const runs = (scheduleId: string) =>
      server.running.services.store.db
        .selectFrom('schedule_runs')
        .select(['occurrence_at', 'operation_id'])
        .where('schedule_id', '=', scheduleId)
        .execute();
    assert.equal((await runs(daily.id)).length, 3);
    assert.equal((await runs(once.id)).length, 1);

    // Three days on, what finished or fired before 2055-05-05T05:00Z is past the retention.
    assertOk(await c.moveClock({ now: '2055-05-08T05:00:00Z' }));
    const cutoff = Date.parse('2055-05-05T05:00:00Z');
    const occurrences = async (id: string) =>
      (await runs(id)).map((r) => new Date(Number(r.occurrence_at)).toISOString()).sort();
    assert.deepEqual(await occurrences(daily.id), [
      '2055-05-05T06:00:00.000Z',
      '2055-05-06T06:00:00.000Z',
      '2055-05-07T06:00:00.000Z',
    ]);
    const [onceRun] = await runs(once.id);
    assert.ok(onceRun?.operation_id, "the one-off's run, past the retention, is kept: it is its last");
    const kept = resultOf(await c.operations.list());
    assert.ok(kept.length < before.length, `${kept.length} of ${before.length} kept`);
    for (const op of kept)
      assert.ok(
        op.id === failedCreate.id || op.id === onceRun.operation_id || Date.parse(op.finished_at ?? '9999') >= cutoff,
        `${op.kind} ${op.state} finished at ${op.finished_at} is past the retention`,
      );
    assert.ok(
      kept.some((o) => o.id === failedCreate.id),
      'the failed operation a resume runs again is kept',
    );
    assertOk(await c.operations.get(onceRun.operation_id));
    assertError(await c.operations.get(firstCreate.id), 404, 'Not-Found', 'id');

    // The kept failed operation still does its work: resume runs it again.
    assertOk(await c.workspaces.update(wg, doomed.workspace_id!, { x_test_env: '' }));
    assert.equal(assertOk(await c.workspaces.resume(wg, doomed.workspace_id!)).status, 'Creating');
    await waitForStatus(c, wg, doomed.workspace_id!, 'Active');
  });
});
