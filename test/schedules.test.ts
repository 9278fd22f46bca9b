import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { API_PREFIX, resultOf, type AcaciaClient, type ScheduleRecord } from '../src/client/index.js';
import type { ScheduleBody } from '../src/schemas/schedule.js';
import { assertError, assertOk } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForStatus } from './helpers/workspaces.js';

const API = API_PREFIX;

describe(`workspace schedules (${storeName})`, () => {
  let server: TestServer;
  let c: AcaciaClient;
  let wg: string;
  let ws: string;
  let orgs = 0;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_CLOCK: 'manual' });
    // Before the 2055 spring DST changes; the manual clock only moves forward.
    assertOk(await server.client.moveClock({ now: '2055-03-01T00:00:00Z', skip_due: true }));
  });
  beforeEach(async () => {
    c = await server.orgClient(`schedules-${++orgs}`);
    wg = await newWorkgroup(c);
    ws = (await activeWorkspace(c, wg, { name: 'scheduled', workspace_type_name: 'TG-0' })).workspace_id!;
  });
  after(() => server.close());

  const to = async (iso: string) => assertOk(await c.moveClock({ now: iso }));
  const jump = async (iso: string) => assertOk(await c.moveClock({ now: iso, skip_due: true }));
  const create = async (body: Omit<ScheduleBody, 'workspace_id'>) =>
    assertOk(await c.schedules.create(wg, ws, { workspace_id: ws, ...body }));
  const read = async (id: string): Promise<ScheduleRecord> => assertOk(await c.schedules.get(wg, ws, id));

  /** Moves the clock to each instant and checks that the schedule's last run was at `expected`. */
  async function expectRuns(id: string, steps: Array<[moveTo: string, lastOccurrence: string, next: string]>) {
    for (const [moveTo, occurrence, next] of steps) {
      await to(moveTo);
      const s = await read(id);
      assert.equal(s.last_run?.occurrence_at, occurrence, `after ${moveTo}`);
      assert.equal(s.last_run?.fired_at, occurrence, 'fired at the occurrence itself');
      assert.equal(s.next_run_at, next, `next after ${moveTo}`);
    }
  }

  it('daily: the same local time across the New York spring change (EST → EDT)', async () => {
    await jump('2055-03-12T12:00:00Z');
    const s = await create({
      repeat: 'daily',
      time: '07:00',
      timezone: 'America/New_York',
      workspace_type_name: 'TG-1',
    });
    assert.equal(s.next_run_at, '2055-03-13T12:00:00Z');
    await expectRuns(s.id, [
      ['2055-03-13T12:30:00Z', '2055-03-13T12:00:00Z', '2055-03-14T11:00:00Z'],
      ['2055-03-14T11:30:00Z', '2055-03-14T11:00:00Z', '2055-03-15T11:00:00Z'],
    ]);
    const resized = await waitForStatus(c, wg, ws, 'Active');
    assert.equal(resized.workspace_type?.typeName, 'TG-1', 'the first run resized the workspace');
    assert.equal((await read(s.id)).last_run?.outcome, 'skipped', 'the second found it already TG-1');
    assert.match((await read(s.id)).last_run!.reason!, /already TG-1/);
  });

  it('weekdays: Friday, then Monday, across the London change (GMT → BST)', async () => {
    await jump('2055-03-26T00:00:00Z');
    const s = await create({ repeat: 'weekdays', time: '09:00', timezone: 'Europe/London', action: 'resume' });
    await expectRuns(s.id, [
      ['2055-03-26T09:00:00Z', '2055-03-26T09:00:00Z', '2055-03-29T08:00:00Z'],
      ['2055-03-29T08:00:00Z', '2055-03-29T08:00:00Z', '2055-03-30T08:00:00Z'],
    ]);
  });

  it('once: a time repeated by the Sydney autumn change runs once, at its first occurrence', async () => {
    await jump('2055-04-01T00:00:00Z');
    const s = await create({
      repeat: 'once',
      date: '2055-04-04',
      time: '02:30',
      timezone: 'Australia/Sydney',
      workspace_type_name: 'TG-1',
    });
    assert.equal(s.next_run_at, '2055-04-03T15:30:00Z'); // 02:30 AEDT (+11)
    await to('2055-04-03T17:00:00Z'); // past 02:30 AEST (+10) as well
    const done = await read(s.id);
    assert.equal(done.last_run?.occurrence_at, '2055-04-03T15:30:00Z');
    assert.equal(done.last_run?.outcome, 'started');
    assert.equal(done.next_run_at, undefined, 'a one-off has no next run');
    const ops = resultOf(await c.operations.list({ resource_id: ws })).filter((o) => o.params.schedule_id === s.id);
    assert.equal(ops.length, 1);
  });

  it('pause and resume schedules drive the workspace', async () => {
    await jump('2055-05-03T00:00:00Z'); // a Monday
    await create({ repeat: 'weekdays', time: '18:00', timezone: 'Europe/Paris', action: 'pause' });
    await create({ repeat: 'weekdays', time: '08:00', timezone: 'Europe/Paris', action: 'resume' });
    await to('2055-05-03T16:00:01Z');
    await waitForStatus(c, wg, ws, 'Stopped');
    await to('2055-05-04T06:00:01Z');
    await waitForStatus(c, wg, ws, 'Active');
  });

  it('records a skipped run, with the reason, when the workspace state forbids the action', async () => {
    await jump('2055-06-01T00:00:00Z');
    assertOk(await c.workspaces.pause(wg, ws));
    await waitForStatus(c, wg, ws, 'Stopped');
    const s = await create({ repeat: 'daily', time: '10:00', timezone: 'UTC', workspace_type_name: 'TG-1' });
    await to('2055-06-01T10:00:00Z');
    const run = (await read(s.id)).last_run!;
    assert.equal(run.outcome, 'skipped');
    assert.match(run.reason!, /Stopped.*must be Active/);
    assert.equal(resultOf(await c.workspaces.get(wg, ws)).workspace_type?.typeName, 'TG-0');
  });

  it('a scheduled shrink below the graph size is skipped with the reason, not run', async () => {
    await jump('2055-06-10T00:00:00Z');
    const big = (
      await activeWorkspace(c, wg, { name: 'big-graph', workspace_type_name: 'TG-1', x_test_env: 'topology=20GiB' })
    ).workspace_id!;
    const s = assertOk(
      await c.schedules.create(wg, big, {
        workspace_id: big,
        repeat: 'daily',
        time: '10:00',
        timezone: 'UTC',
        workspace_type_name: 'TG-00',
      }),
    );
    await to('2055-06-10T10:00:00Z');
    const run = assertOk(await c.schedules.get(wg, big, s.id)).last_run!;
    assert.equal(run.outcome, 'skipped');
    assert.match(run.reason!, /more than TG-00 allows \(8 GB\)/);
    assert.equal(resultOf(await c.workspaces.get(wg, big)).workspace_type?.typeName, 'TG-1');
  });

  it('grace rule: a run up to 15 minutes late still happens; later than that it is skipped and recorded', async () => {
    await jump('2055-07-01T00:00:00Z');
    const s = await create({ repeat: 'daily', time: '10:00', timezone: 'UTC', action: 'pause' });
    await jump('2055-07-01T10:10:00Z');
    let run = (await read(s.id)).last_run!;
    assert.equal(run.outcome, 'started');
    assert.equal(run.occurrence_at, '2055-07-01T10:00:00Z');
    assert.equal(run.fired_at, '2055-07-01T10:10:00Z');
    await jump('2055-07-02T10:20:00Z');
    run = (await read(s.id)).last_run!;
    assert.equal(run.outcome, 'skipped');
    assert.equal(run.occurrence_at, '2055-07-02T10:00:00Z');
    assert.match(run.reason!, /missed by 20 minutes/);
    assert.equal((await read(s.id)).next_run_at, '2055-07-03T10:00:00Z');
    // A three-day outage is one skipped run, not three; the next occurrence is the future one.
    await jump('2055-07-05T11:00:00Z');
    const after = await read(s.id);
    assert.equal(after.last_run!.occurrence_at, '2055-07-03T10:00:00Z');
    assert.match(after.last_run!.reason!, /missed by 2940 minutes.*skipped with it/);
    assert.equal(after.next_run_at, '2055-07-06T10:00:00Z');
  });

  it('a restart in the middle of a due window does not fire twice', async () => {
    await jump('2055-08-01T00:00:00Z');
    const s = await create({ repeat: 'daily', time: '10:00', timezone: 'UTC', action: 'pause' });
    await server.restart();
    await jump('2055-08-01T10:05:00Z');
    const first = (await read(s.id)).last_run!;
    assert.equal(first.outcome, 'started');
    await server.restart();
    await jump('2055-08-01T10:06:00Z');
    assert.deepEqual((await read(s.id)).last_run, first);
    const ops = resultOf(await c.operations.list({ resource_id: ws })).filter((o) => o.params.schedule_id === s.id);
    assert.equal(ops.length, 1, 'one operation for the one occurrence');
  });

  it('weekly on several days: a time skipped by the change runs at the first valid minute', async () => {
    await jump('2056-03-11T00:00:00Z');
    const s = await create({
      repeat: 'weekly',
      repeat_on: 'sun,WED',
      time: '02:30',
      timezone: 'America/New_York',
      action: 'pause',
    });
    assert.equal(s.repeat_on, 'Sun,Wed');
    await expectRuns(s.id, [
      ['2056-03-12T07:00:00Z', '2056-03-12T07:00:00Z', '2056-03-15T06:30:00Z'], // 02:30 does not exist: 03:00 EDT
      ['2056-03-15T06:30:00Z', '2056-03-15T06:30:00Z', '2056-03-19T06:30:00Z'],
    ]);
  });

  describe('routes and validation', () => {
    const post = (body: unknown) => c.request('POST', `${API}/workgroups/${wg}/workspaces/${ws}/schedules`, { body });
    const valid = () => ({
      repeat: 'daily',
      time: '07:30',
      timezone: 'Europe/Paris',
      workspace_id: ws,
      workspace_type_name: 'TG-1',
    });
    const cases: Array<[string, Record<string, unknown>, number, string, string]> = [
      ['an unknown repeat', { repeat: 'hourly' }, 400, 'Bad-Request', 'repeat'],
      ['a missing time', { time: undefined }, 400, 'Bad-Request', 'time'],
      ['a 25:00 time', { time: '25:00' }, 400, 'Bad-Request', 'time'],
      ['an unpadded time', { time: '7:5' }, 400, 'Bad-Request', 'time'],
      ['an unknown time zone', { timezone: 'Europe/Atlantis' }, 400, 'Bad-Request', 'timezone'],
      ['a missing time zone', { timezone: undefined }, 400, 'Bad-Request', 'timezone'],
      ['another workspace_id', { workspace_id: 'someone-else' }, 400, 'Bad-Request', 'workspace_id'],
      ['a once without date', { repeat: 'once' }, 400, 'Bad-Request', 'date'],
      ['a bad date', { repeat: 'once', date: '2055-02-30' }, 400, 'Bad-Request', 'date'],
      ['a date on a daily schedule', { date: '2055-09-01' }, 400, 'Bad-Request', 'date'],
      ['a past one-off', { repeat: 'once', date: '2020-01-01' }, 400, 'Bad-Request', 'date'],
      ['a weekly without days', { repeat: 'weekly' }, 400, 'Bad-Request', 'repeat_on'],
      ['unknown days', { repeat: 'weekly', repeat_on: 'Mon,Someday' }, 400, 'Bad-Request', 'repeat_on'],
      ['days on a daily schedule', { repeat_on: 'Mon' }, 400, 'Bad-Request', 'repeat_on'],
      ['a resize without a size', { workspace_type_name: undefined }, 400, 'Bad-Request', 'workspace_type_name'],
      ['an unknown size', { workspace_type_name: 'TG-3' }, 400, 'Bad-Request', 'workspace_type_name'],
      ['a size above the tier', { workspace_type_name: 'TG-128' }, 403, 'Quota-Exceed', 'workspace_type_name'],
      ['a size on a pause', { action: 'pause' }, 400, 'Bad-Request', 'workspace_type_name'],
      ['an unknown action', { action: 'reboot' }, 400, 'Bad-Request', 'action'],
      ['an unknown field', { colour: 'red' }, 400, 'Bad-Request', 'colour'],
    ];
    for (const [name, change, status, type, field] of cases) {
      it(`refuses ${name}`, async () => {
        assertError(await post({ ...valid(), ...change }), status, type, field);
        assert.deepEqual(assertOk(await c.schedules.list(wg, ws)), [], 'nothing was created');
      });
    }

    it('refuses a resize schedule on a read-only workspace', async () => {
      const rw = resultOf(await c.workspaces.get(wg, ws));
      const ro = await activeWorkspace(c, wg, { name: 'reader', is_rw: false, tg_database_id: rw.database_id! });
      const res = await c.schedules.create(wg, ro.workspace_id!, {
        ...valid(),
        workspace_id: ro.workspace_id!,
      } as ScheduleBody);
      assertError(res, 400, 'Bad-Request', 'workspace_type_name');
    });

    it('updates (Result: the id as a string), lists, reads and deletes under both path forms', async () => {
      const s = assertOk(await c.schedules.create(wg, ws, valid() as ScheduleBody));
      const updated = await c.schedules.update(wg, ws, s.id, {
        repeat: 'weekly',
        repeat_on: 'Tue',
        time: '06:00',
        timezone: 'Asia/Tokyo',
        workspace_id: ws,
        workspace_type_name: 'TG-2',
      });
      assert.equal(assertOk(updated), s.id);
      const read1 = assertOk(await c.schedules.get(wg, ws, s.id));
      assert.equal(read1.repeat_on, 'Tue');
      assert.equal(read1.workspace_type_name, 'TG-2');
      assert.equal(read1.version_number, 2);
      assert.deepEqual(assertOk(await c.schedules.listShort(ws)), [read1]);
      assert.equal(
        assertOk(
          await c.schedules.updateShort(ws, s.id, {
            repeat: 'daily',
            time: '05:00',
            timezone: 'UTC',
            workspace_id: ws,
          }),
        ),
        s.id,
      );
      const merged = assertOk(await c.schedules.get(wg, ws, s.id));
      assert.equal(merged.repeat_on, undefined, 'days are dropped when repeat changes');
      assert.equal(merged.workspace_type_name, 'TG-2', 'an omitted size is kept');
      assertError(
        await c.schedules.update(wg, ws, s.id, { ...valid(), id: 'other' } as ScheduleBody),
        400,
        'Bad-Request',
        'id',
      );
      assertError(
        await c.schedules.update(wg, ws, s.id, valid() as ScheduleBody, { ifMatch: 1 }),
        412,
        'Bad-Request',
        'If-Match',
      );
      assertOk(await c.schedules.deleteShort(ws, s.id));
      assertError(await c.schedules.get(wg, ws, s.id), 404, 'Not-Found', 'scheduleID');
      assertError(await c.schedules.delete(wg, ws, s.id), 404, 'Not-Found', 'scheduleID');
      assertError(await c.schedules.listShort('no-such-workspace'), 404, 'Not-Found', 'workspaceID');
    });

    it('keeps schedules to their organisation and lets a viewer only read', async () => {
      const s = assertOk(await c.schedules.create(wg, ws, valid() as ScheduleBody));
      const stranger = await server.orgClient('schedule-stranger');
      assertError(await stranger.schedules.listShort(ws), 404, 'Not-Found', 'workspaceID');
      assertError(await stranger.schedules.deleteShort(ws, s.id), 404, 'Not-Found', 'workspaceID');
      const viewer = await server.orgClient(`schedules-${orgs}`, { role: 'viewer' });
      assert.equal(assertOk(await viewer.schedules.list(wg, ws)).length, 1);
      assertError(await viewer.schedules.create(wg, ws, valid() as ScheduleBody), 403, 'Forbidden', 'x-api-key');
      assertError(await viewer.schedules.delete(wg, ws, s.id), 403, 'Forbidden', 'x-api-key');
    });
  });
});
