import type { Selectable } from 'kysely';
import type { ScheduleRunsTable, SchedulesTable } from '../schema.js';
import type { Executor } from '../store.js';
import type { Tx } from '../unit-of-work.js';
import { countRows } from '../count-rows.js';

export type Schedule = Selectable<SchedulesTable>;
export type ScheduleRun = Selectable<ScheduleRunsTable>;

export async function insertSchedule(tx: Tx, row: Schedule): Promise<void> {
  await tx.db.insertInto('schedules').values(row).execute();
  tx.noteChange({ kind: 'schedule', id: row.id, orgId: row.org_id, workspaceId: row.workspace_id, change: 'created' });
}

export async function findSchedule(db: Executor, orgId: string, id: string): Promise<Schedule | undefined> {
  return db.selectFrom('schedules').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export async function findScheduleById(db: Executor, id: string): Promise<Schedule | undefined> {
  return db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listSchedulesOfWorkspace(db: Executor, workspaceId: string): Promise<Schedule[]> {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function updateSchedule(tx: Tx, row: Schedule, changes: Partial<Schedule>, now: number): Promise<boolean> {
  const result = await tx.db
    .updateTable('schedules')
    .set({ ...changes, updated_at: now, version_number: row.version_number + 1 })
    .where('id', '=', row.id)
    .where('version_number', '=', row.version_number)
    .executeTakeFirst();
  const updated = Number(result.numUpdatedRows) === 1;
  if (updated)
    tx.noteChange({
      kind: 'schedule',
      id: row.id,
      orgId: row.org_id,
      workspaceId: row.workspace_id,
      change: 'updated',
    });
  return updated;
}

export async function deleteSchedule(tx: Tx, id: string): Promise<void> {
  const gone = await tx.db
    .deleteFrom('schedules')
    .where('id', '=', id)
    .returning(['org_id', 'workspace_id'])
    .executeTakeFirst();
  if (gone) {
    const { org_id: orgId, workspace_id: workspaceId } = gone;
    tx.noteChange({ kind: 'schedule', id, orgId, workspaceId, change: 'deleted' });
  }
}

export async function dueSchedules(db: Executor, now: number, limit: number): Promise<Schedule[]> {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
}

export async function nextScheduleAt(db: Executor, after: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('schedules')
    .select((eb) => eb.fn.min('next_run_at').as('at'))
    .where('next_run_at', '>', after)
    .executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}

/**
 * Claims one occurrence: moves next_run_at from the occurrence to the following one only if
 * nobody did so first. Exactly one process (or request) wins each occurrence.
 */
export async function claimOccurrence(
  db: Executor,
  id: string,
  occurrence: number,
  next: number | null,
): Promise<boolean> {
  const result = await db
    .updateTable('schedules')
    .set({ next_run_at: next })
    .where('id', '=', id)
    .where('next_run_at', '=', occurrence)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertScheduleRun(tx: Tx, run: ScheduleRun): Promise<void> {
  await tx.db.insertInto('schedule_runs').values(run).execute();
  // A run is an event of its schedule: run_started when it enqueued its operation, run_skipped otherwise.
  const change = run.operation_id ? 'run_started' : 'run_skipped';
  tx.noteChange({ kind: 'schedule', id: run.schedule_id, change, data: run });
}

/** The latest run of each schedule, for the records. */
export async function lastRuns(db: Executor, scheduleIds: string[]): Promise<Map<string, ScheduleRun>> {
  if (scheduleIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('schedule_runs')
    .selectAll()
    .where((eb) =>
      eb(
        eb.refTuple('schedule_id', 'occurrence_at'),
        'in',
        eb
          .selectFrom('schedule_runs')
          .select(['schedule_id', (e) => e.fn.max('occurrence_at').as('occurrence_at')])
          .where('schedule_id', 'in', scheduleIds)
          .groupBy('schedule_id')
          .$asTuple('schedule_id', 'occurrence_at'),
      ),
    )
    .execute();
  return new Map(rows.map((r) => [r.schedule_id, r]));
}

/**
 * Deletes the schedule runs fired before `before`, but for each schedule's latest (its record's
 * `last_run`); returns how many went. The occurrence guard does not need them: a schedule's
 * next_run_at has moved past every occurrence they record.
 */
export async function pruneScheduleRuns(db: Executor, before: number): Promise<number> {
  const result = await db
    .deleteFrom('schedule_runs')
    .where('fired_at', '<', before)
    .where('occurrence_at', '<', (eb) =>
      eb
        .selectFrom('schedule_runs as latest')
        .select((e) => e.fn.max('latest.occurrence_at').as('at'))
        .whereRef('latest.schedule_id', '=', 'schedule_runs.schedule_id'),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countSchedules(db: Executor, workspaceId: string): Promise<number> {
  return countRows(db.selectFrom('schedules').where('workspace_id', '=', workspaceId));
}
