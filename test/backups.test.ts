import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resultOf, type AcaciaClient, type BackupRecord } from '../src/client/index.js';
import type { Tier } from '../src/schemas/catalog.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

const MiB = 1024 ** 2;
const HOUR = 3600;
const DAY = 24 * HOUR;

// ACACIA_SIM_SPEED=0 finishes each step on the engine's next tick; `slow:` directives hold a
// backup or a restore until the manual clock passes them. Moving the manual clock runs every
// schedule firing at its own instant before the call answers.
describe(`backups (${storeName})`, () => {
  let server: TestServer;
  let orgs = 0;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
  });
  after(() => server.close());

  /** A fresh organisation (so tier quotas never couple tests) with one workgroup. */
  async function org(tier: Tier = 'enterprise'): Promise<{ c: AcaciaClient; wg: string }> {
    const c = await server.orgClient(`backups-${++orgs}`, { tier });
    return { c, wg: await newWorkgroup(c, 'backups') };
  }

  /** Polls the workspace's backups until `until` accepts them; engine work is asynchronous, not time-based. */
  async function waitForBackups(
    c: AcaciaClient,
    ws: string,
    until: (list: BackupRecord[]) => boolean,
  ): Promise<BackupRecord[]> {
    let list: BackupRecord[] = [];
    for (let i = 0; i < 200; i++) {
      list = resultOf(await c.backups.listByWorkspace(ws));
      if (until(list)) return list;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`backups of ${ws} never matched: ${JSON.stringify(list)}`);
  }
  const settled = (id: string) => (list: BackupRecord[]) => list.some((b) => b.id === id && b.status !== 'InProgress');
  const advance = async (c: AcaciaClient, seconds: number) => assertOk(await c.moveClock({ advance_seconds: seconds }));
  const moveTo = async (c: AcaciaClient, now: string) => assertOk(await c.moveClock({ now }));

  it('manual backup: InProgress → Succeeded with size, version, tag; listed under both paths; statistics', async () => {
    const { c, wg } = await org();
    const ws = await activeWorkspace(c, wg, { name: 'bk-manual', tg_version: '4.1.3', x_test_env: 'topology=5MiB' });
    const id = ws.workspace_id!;
    const created = assertOk(await c.backups.create(wg, id, { tag: 'before-migration' }));
    assert.equal(created.status, 'InProgress');
    assert.equal(created.is_automatic, false);
    assert.equal(created.type, 'full');
    const done = (await waitForBackups(c, id, settled(created.id))).find((b) => b.id === created.id)!;
    assert.deepEqual(done, { ...created, status: 'Succeeded', size_bytes: String(5 * MiB) });
    assert.equal(done.version, '4.1.3');
    assert.equal(done.tag, 'before-migration');
    assert.match(done.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(assertOk(await c.backups.list(wg, id)), [done]);
    assert.deepEqual(assertOk(await c.backups.listByWorkspace(id)), [done]);

    const record = resultOf(await c.workspaces.get(wg, id));
    assert.equal(record.folder_statistics?.backup_size, 5 * MiB);
    assert.equal(record.folder_statistics?.total_size, 5 * MiB);
    const database = resultOf(await c.databases.get(wg, ws.database_id!));
    assert.equal(database.folder_statistics?.backup_size, 5 * MiB);

    assert.equal(assertOk(await c.backups.delete(wg, id, { backup_id: done.id })), done.id);
    assert.deepEqual(assertOk(await c.backups.list(wg, id)), []);
    assert.equal(resultOf(await c.workspaces.get(wg, id)).folder_statistics?.backup_size, 0);
    assertError(await c.backups.delete(wg, id, { backup_id: done.id }), 404, 'Not-Found', 'backup_id');
  });

  it('delete: 409 while InProgress, 404 for an unknown id, a missing body names backup_id', async () => {
    const { c, wg } = await org();
    const id = (await activeWorkspace(c, wg, { name: 'bk-delete', x_test_env: 'slow:backup=60s' })).workspace_id!;
    const backup = assertOk(await c.backups.create(wg, id));
    assertError(await c.backups.delete(wg, id, { backup_id: backup.id }), 409, 'Bad-Request', 'backup_id');
    assertError(
      await c.backups.delete(wg, id, { backup_id: '0190a1b2-0000-7000-8000-000000000000' }),
      404,
      'Not-Found',
      'backup_id',
    );
    assertError(
      await c.request('DELETE', `/controller/v4/v2/workgroups/${wg}/workspaces/${id}/backups`),
      400,
      'Bad-Request',
      'backup_id',
    );
    await advance(c, 60);
    await waitForBackups(c, id, settled(backup.id));
    assert.equal(assertOk(await c.backups.delete(wg, id, { backup_id: backup.id })), backup.id);
  });

  it('manual quota: the tier limit per RW workspace; failed backups do not count', async () => {
    const { c, wg } = await org('free');
    const id = (await activeWorkspace(c, wg, { name: 'bk-quota', x_test_env: 'fail:backup' })).workspace_id!;
    const failed = assertOk(await c.backups.create(wg, id));
    const [first] = await waitForBackups(c, id, settled(failed.id));
    assert.equal(first!.status, 'Failed');
    assertOk(await c.workspaces.update(wg, id, { x_test_env: '' }));
    const ok = assertOk(await c.backups.create(wg, id));
    await waitForBackups(c, id, settled(ok.id));
    assertError(await c.backups.create(wg, id), 403, 'Quota-Exceed', 'workspaceID');
    // Deleting a backup frees its place.
    assertOk(await c.backups.delete(wg, id, { backup_id: ok.id }));
    assertOk(await c.backups.create(wg, id));
  });

  it('only Active read-write workspaces are backed up', async () => {
    const { c, wg } = await org();
    const rw = await activeWorkspace(c, wg, { name: 'bk-rw' });
    const ro = await activeWorkspace(c, wg, { name: 'bk-ro', is_rw: false, tg_database_id: rw.database_id! });
    assertError(await c.backups.create(wg, ro.workspace_id!), 400, 'Bad-Request', 'workspaceID');
    assertError(
      await c.backups.setSchedule(wg, ro.workspace_id!, { schedule: '0 * * * *' }),
      400,
      'Bad-Request',
      'workspaceID',
    );
    assertOk(await c.workspaces.pause(wg, rw.workspace_id!));
    await waitForStatus(c, wg, rw.workspace_id!, 'Stopped');
    assertError(await c.backups.create(wg, rw.workspace_id!), 409, 'Bad-Request', 'status');
    assertError(await c.backups.create(wg, rw.workspace_id!, { tag: '' }), 400, 'Bad-Request', 'tag');
  });

  it('schedule validation and the automatic backup quota', async () => {
    const { c, wg } = await org('paid');
    const id = (await activeWorkspace(c, wg, { name: 'bk-sched-rules' })).workspace_id!;
    assertError(await c.backups.getSchedule(id), 404, 'Not-Found', 'workspaceID');
    assertError(await c.backups.schedule(wg, id), 404, 'Not-Found', 'workspaceID');
    assertError(await c.backups.setSchedule(wg, id, { max_retry: 1 }), 400, 'Bad-Request', 'schedule');
    for (const schedule of ['0 * * *', '0 0 * * * *', '61 * * * *', '@daily', 'every hour']) {
      assertError(await c.backups.setSchedule(wg, id, { schedule }), 400, 'Bad-Request', 'schedule');
    }
    // Days that none of the listed months has: never, however many months are listed.
    for (const schedule of ['0 0 31 4 *', '0 0 31 4,6,9,11 *', '0 0 30 2 *']) {
      const never = assertError(await c.backups.setSchedule(wg, id, { schedule }), 400, 'Bad-Request', 'schedule');
      assert.equal(never.Reason, 'never occurs');
    }
    assertError(
      await c.backups.setSchedule(wg, id, { schedule: '0 * * * *', max_retry: 11 }),
      400,
      'Bad-Request',
      'max_retry',
    );
    assertError(
      await c.backups.setSchedule(wg, id, { schedule: '0 * * * *', max_backup_files: 0 }),
      400,
      'Bad-Request',
      'max_backup_files',
    );
    assertError(
      await c.backups.setSchedule(wg, id, { schedule: '0 * * * *', max_backup_files: 4 }),
      403,
      'Quota-Exceed',
      'max_backup_files',
    );
    const saved = assertOk(
      await c.backups.setSchedule(wg, id, {
        schedule: '30 2 * * *',
        max_backup_files: 3,
        max_reserved_days: 5,
        max_retry: 2,
        pause: true,
      }),
    );
    assert.equal(saved.timezone, 'UTC');
    assert.equal(saved.next_run_at, undefined, 'a paused schedule has no next run');
    assert.deepEqual(assertOk(await c.backups.getSchedule(id)), saved);
    assert.deepEqual(assertOk(await c.backups.schedule(wg, id)), saved);
    // Updates merge: unpausing keeps the rest and computes the next 02:30 UTC.
    const running = assertOk(await c.backups.setSchedule(wg, id, { pause: false }));
    assert.equal(running.max_backup_files, 3);
    assert.equal(running.max_retry, 2);
    assert.match(running.next_run_at!, /T02:30:00Z$/);

    const free = await org('free');
    const freeWs = (await activeWorkspace(free.c, free.wg, { name: 'bk-sched-free' })).workspace_id!;
    assertError(
      await free.c.backups.setSchedule(free.wg, freeWs, { schedule: '0 * * * *' }),
      403,
      'Quota-Exceed',
      'max_backup_files',
    );
  });

  it('automatic backups fire at the cron instants; retention keeps max_backup_files; pause stops firings', async () => {
    const { c, wg } = await org();
    const id = (await activeWorkspace(c, wg, { name: 'bk-auto', x_test_env: 'topology=2MiB' })).workspace_id!;
    const manual = assertOk(await c.backups.create(wg, id, { tag: 'manual' }));
    await waitForBackups(c, id, settled(manual.id));
    const schedule = assertOk(
      await c.backups.setSchedule(wg, id, {
        schedule: '0 * * * *',
        max_backup_files: 2,
        max_reserved_days: 30,
        max_retry: 0,
      }),
    );
    const first = Date.parse(schedule.next_run_at!);
    assert.equal(first % (HOUR * 1000), 0, 'hourly, on the hour (UTC)');

    await moveTo(c, schedule.next_run_at!);
    let auto = resultOf(await c.backups.listByWorkspace(id)).filter((b) => b.is_automatic);
    assert.deepEqual(
      auto.map((b) => [b.time, b.status, b.size_bytes]),
      [[new Date(first).toISOString().replace('.000', ''), 'Succeeded', String(2 * MiB)]],
    );

    await advance(c, 3 * HOUR);
    const all = resultOf(await c.backups.listByWorkspace(id));
    auto = all.filter((b) => b.is_automatic);
    const at = (hours: number) => new Date(first + hours * HOUR * 1000).toISOString().replace('.000', '');
    assert.deepEqual(
      auto.map((b) => b.time),
      [at(2), at(3)],
      'the two newest automatic backups are kept',
    );
    assert.ok(
      all.some((b) => b.id === manual.id),
      'retention never touches manual backups',
    );
    const state = assertOk(await c.backups.getSchedule(id));
    assert.equal(state.last_run_at, at(3));
    assert.equal(state.last_run_outcome, 'started');
    assert.equal(state.last_backup_id, auto[1]!.id);
    assert.equal(state.next_run_at, at(4));

    assertOk(await c.backups.setSchedule(wg, id, { pause: true }));
    await advance(c, 3 * HOUR);
    assert.deepEqual(
      resultOf(await c.backups.listByWorkspace(id))
        .filter((b) => b.is_automatic)
        .map((b) => b.time),
      [at(2), at(3)],
    );
  });

  it('retention by max_reserved_days, by the manual clock', async () => {
    const { c, wg } = await org();
    const id = (await activeWorkspace(c, wg, { name: 'bk-days' })).workspace_id!;
    const schedule = assertOk(
      await c.backups.setSchedule(wg, id, { schedule: '0 0 * * *', max_backup_files: 7, max_reserved_days: 2 }),
    );
    const first = Date.parse(schedule.next_run_at!);
    const at = (days: number) => new Date(first + days * DAY * 1000).toISOString().replace('.000', '');
    await moveTo(c, schedule.next_run_at!);
    await advance(c, 2 * DAY);
    // The backup of day 0 is two days old at day 2 and goes; days 1 and 2 stay.
    assert.deepEqual(
      resultOf(await c.backups.listByWorkspace(id)).map((b) => b.time),
      [at(1), at(2)],
    );
    // Retention applies while paused too.
    assertOk(await c.backups.setSchedule(wg, id, { pause: true }));
    await advance(c, DAY);
    assert.deepEqual(
      resultOf(await c.backups.listByWorkspace(id)).map((b) => b.time),
      [at(2)],
    );
    await advance(c, DAY);
    assert.deepEqual(resultOf(await c.backups.listByWorkspace(id)), []);
  });

  it('a firing while the workspace is Stopped is skipped; a failed automatic backup is retried max_retry', async () => {
    const { c, wg } = await org();
    const id = (await activeWorkspace(c, wg, { name: 'bk-skip' })).workspace_id!;
    const schedule = assertOk(
      await c.backups.setSchedule(wg, id, { schedule: '15 * * * *', max_backup_files: 3, max_retry: 2 }),
    );
    assertOk(await c.workspaces.pause(wg, id));
    await waitForStatus(c, wg, id, 'Stopped');
    await moveTo(c, schedule.next_run_at!);
    const skipped = assertOk(await c.backups.getSchedule(id));
    assert.equal(skipped.last_run_outcome, 'skipped');
    assert.match(skipped.last_run_reason!, /Stopped/);
    assert.equal(skipped.last_run_at, schedule.next_run_at);
    assert.deepEqual(resultOf(await c.backups.listByWorkspace(id)), []);

    assertOk(await c.workspaces.update(wg, id, { pause: false, x_test_env: 'fail:backup' }));
    await waitForStatus(c, wg, id, 'Active');
    await advance(c, HOUR);
    const [failed] = resultOf(await c.backups.listByWorkspace(id));
    assert.equal(failed!.status, 'Failed');
    const op = resultOf(await c.operations.list({ resource_id: failed!.id }))[0]!;
    assert.equal(op.kind, 'backup.create');
    assert.equal(op.max_attempts, 3);
    assert.equal(op.attempt, 3);
    assertOk(await c.backups.setSchedule(wg, id, { pause: true }));
  });

  it('restore: job InProgress while Restoring, then Succeeded, the workspace Active with the backup data', async () => {
    const { c, wg } = await org();
    const id = (await activeWorkspace(c, wg, { name: 'bk-restore', x_test_env: 'topology=7MiB' })).workspace_id!;
    const backup = assertOk(await c.backups.create(wg, id));
    await waitForBackups(c, id, settled(backup.id));
    assertOk(await c.workspaces.update(wg, id, { x_test_env: 'slow:restore=60s' }));

    const job_id = assertOk(await c.backups.restore(wg, id, { backup_id: backup.id }));
    assert.equal(typeof job_id, 'string');
    const restoring = resultOf(await c.workspaces.get(wg, id));
    assert.equal(restoring.status, 'Restoring');
    assert.equal(restoring.condition_type, 'Restore');
    const running = assertOk(await c.backups.restoreStatus(id, job_id));
    assert.equal(running.status, 'InProgress');
    assert.equal(running.backup_id, backup.id);
    assert.equal(running.finished_at, undefined);
    // Neither a second restore nor a new backup while Restoring; the backup in use stays.
    assertError(await c.backups.restore(wg, id, { backup_id: backup.id }), 409, 'Bad-Request', 'status');
    assertError(await c.backups.create(wg, id), 409, 'Bad-Request', 'status');
    assertError(await c.backups.delete(wg, id, { backup_id: backup.id }), 409, 'Bad-Request', 'backup_id');

    await advance(c, 60);
    const active = await waitForStatus(c, wg, id, 'Active');
    assert.equal(active.graph_topology_size_bytes, 7 * MiB);
    assert.equal(active.snapshot_time, backup.time);
    const finished = assertOk(await c.backups.restoreStatus(id, job_id));
    assert.equal(finished.status, 'Succeeded');
    assert.ok(finished.finished_at);
    assertError(await c.backups.restoreStatus(id, backup.id), 404, 'Not-Found', 'jobID');
    // The real service's long form, under the workgroup: the same record, the same refusals.
    assert.deepEqual(assertOk(await c.backups.status(wg, id, job_id)), finished);
    assertError(await c.backups.status(wg, id, backup.id), 404, 'Not-Found', 'job');
    const otherWg = await newWorkgroup(c, 'bk-restore-other');
    assertError(await c.backups.status(otherWg, id, job_id), 404, 'Not-Found', 'workspaceID');
  });

  it('restore refusals: unknown backup 404, a Failed backup 409, another workspace 404', async () => {
    const { c, wg } = await org();
    const id = (await activeWorkspace(c, wg, { name: 'bk-restore-no', x_test_env: 'fail:backup' })).workspace_id!;
    const failed = assertOk(await c.backups.create(wg, id));
    await waitForBackups(c, id, settled(failed.id));
    assertError(await c.backups.restore(wg, id, { backup_id: failed.id }), 409, 'Bad-Request', 'backup_id');
    assertError(
      await c.backups.restore(wg, id, { backup_id: '0190a1b2-0000-7000-8000-000000000000' }),
      404,
      'Not-Found',
      'backup_id',
    );
    const other = (await activeWorkspace(c, wg, { name: 'bk-restore-other' })).workspace_id!;
    assertError(await c.backups.restore(wg, other, { backup_id: failed.id }), 404, 'Not-Found', 'backup_id');
    assertError(await c.backups.restore(wg, other, { backup_id: '' }), 400, 'Bad-Request', 'backup_id');
  });

  it('a restore failure injected with x_test_env: workspace Failed, job Failed with its error', async () => {
    const { c, wg } = await org();
    const id = (await activeWorkspace(c, wg, { name: 'bk-restore-fail' })).workspace_id!;
    const backup = assertOk(await c.backups.create(wg, id));
    await waitForBackups(c, id, settled(backup.id));
    assertOk(await c.workspaces.update(wg, id, { x_test_env: 'fail:restore' }));
    const job_id = assertOk(await c.backups.restore(wg, id, { backup_id: backup.id }));
    const failed = await waitForStatus(c, wg, id, 'Failed');
    assert.match(failed.err_message!, /restore/);
    const status = assertOk(await c.backups.restoreStatus(id, job_id));
    assert.equal(status.status, 'Failed');
    assert.match(status.error!, /simulated restore failure/);
    assert.ok(status.finished_at);
  });

  it('permissions: every role reads; workspace:edit changes; another organisation gets 404', async () => {
    const { c, wg } = await org();
    const id = (await activeWorkspace(c, wg, { name: 'bk-perm' })).workspace_id!;
    const backup = assertOk(await c.backups.create(wg, id));
    await waitForBackups(c, id, settled(backup.id));

    const viewer = await server.orgClient(`backups-${orgs}`, { role: 'viewer' });
    assert.equal(assertOk(await viewer.backups.list(wg, id)).length, 1);
    assertError(await viewer.backups.create(wg, id), 403, 'Forbidden', 'x-api-key');
    assertError(await viewer.backups.delete(wg, id, { backup_id: backup.id }), 403, 'Forbidden', 'x-api-key');
    assertError(await viewer.backups.restore(wg, id, { backup_id: backup.id }), 403, 'Forbidden', 'x-api-key');
    assertError(await viewer.backups.setSchedule(wg, id, { schedule: '0 * * * *' }), 403, 'Forbidden', 'x-api-key');

    const admin = await server.orgClient(`backups-${orgs}`, { role: 'workspace-admin', workspaceIds: [id] });
    const second = assertOk(await admin.backups.create(wg, id, { tag: 'by-workspace-admin' }));
    await waitForBackups(c, id, settled(second.id));
    assertOk(await admin.backups.setSchedule(wg, id, { schedule: '0 3 * * *', pause: true }));

    const stranger = (await org()).c;
    assertError(await stranger.backups.listByWorkspace(id), 404, 'Not-Found', 'workspaceID');
    assertError(await stranger.backups.getSchedule(id), 404, 'Not-Found', 'workspaceID');
    assertError(await stranger.backups.list(wg, id), 404, 'Not-Found', 'workgroupID');
  });
});
