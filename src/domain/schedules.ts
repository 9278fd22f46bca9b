import type { Store, Tx } from '../store/store.js';
import * as repo from '../store/repositories/schedules.js';
import type { Schedule, ScheduleRun } from '../store/repositories/schedules.js';
import type { Workspace } from '../store/repositories/workspaces.js';
import type { Clock } from './clock.js';
import type { ScheduleBody, ScheduleRecord } from '../schemas/schedule.js';
import { findSize, type Catalog } from './catalog.js';
import { Problems, conflict, invalid, notFound } from './errors.js';
import { newId } from './ids.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount, checkTierSize } from './quotas.js';
import { lockRow } from '../store/repositories/row-locks.js';
import {
  checkTiming,
  formatRepeatOn,
  nextOccurrence,
  parseRepeatOn,
  type Repeat,
  type ScheduleAction,
} from './schedule-rules.js';
import { iso } from './time.js';
import { checkIfMatch, type RequestContext } from './workgroups.js';
import type { WorkspaceService } from './workspaces.js';

/** Where a schedule route points: the long path names the workgroup, the short one does not. */
export interface WorkspaceRef {
  workgroupId?: string;
  workspaceId: string;
}

export function timingOf(s: Pick<Schedule, 'repeat' | 'date' | 'repeat_on' | 'time' | 'timezone'>) {
  return {
    repeat: s.repeat as Repeat,
    date: s.date,
    days: s.repeat_on ? parseRepeatOn(s.repeat_on) : undefined,
    time: s.time,
    timezone: s.timezone,
  };
}

export function scheduleRecord(s: Schedule, last: ScheduleRun | undefined): ScheduleRecord {
  return {
    id: s.id,
    workspace_id: s.workspace_id,
    repeat: s.repeat as ScheduleRecord['repeat'],
    ...(s.date ? { date: s.date } : {}),
    ...(s.repeat_on ? { repeat_on: s.repeat_on } : {}),
    time: s.time,
    timezone: s.timezone,
    ...(s.workspace_type_name ? { workspace_type_name: s.workspace_type_name } : {}),
    action: s.action as ScheduleRecord['action'],
    ...(s.next_run_at !== null ? { next_run_at: iso(s.next_run_at) } : {}),
    ...(last
      ? {
          last_run: {
            occurrence_at: iso(last.occurrence_at),
            fired_at: iso(last.fired_at),
            outcome: last.outcome as 'started' | 'skipped',
            ...(last.reason ? { reason: last.reason } : {}),
            ...(last.operation_id ? { operation_id: last.operation_id } : {}),
          },
        }
      : {}),
    created_at: iso(s.created_at),
    version_number: s.version_number,
  };
}

export class ScheduleService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workspaces: WorkspaceService,
  ) {}

  async create(p: Principal, ref: WorkspaceRef, body: ScheduleBody, tx?: Tx): Promise<ScheduleRecord> {
    const ws = await this.workspace(p, ref, tx);
    authorize(p, 'workspace:edit', { workgroupId: ws.workgroup_id, workspaceId: ws.id });
    const now = this.clock.now();
    const fields = this.validate(p, ws, body, now);
    const row: Schedule = {
      id: newId(),
      org_id: p.orgId,
      workspace_id: ws.id,
      ...fields,
      created_at: now,
      updated_at: now,
      version_number: 1,
    };
    const limit = this.catalog.limits.schedules_per_workspace;
    await this.store.unit(tx, async (trx) => {
      await lockRow(trx.db, 'workspaces', ws.id);
      checkCount('workspaceID', await repo.countSchedules(trx.db, ws.id), limit, 'schedules per workspace');
      await repo.insertSchedule(trx, row);
    });
    return scheduleRecord(row, undefined);
  }

  /** Operation 8: replaces the timing and action; fields the body omits keep their values where they still apply. */
  async update(
    p: Principal,
    ref: WorkspaceRef,
    scheduleId: string,
    body: ScheduleBody,
    ctx: RequestContext,
  ): Promise<string> {
    const ws = await this.workspace(p, ref);
    const current = await this.find(p, ws, scheduleId);
    authorize(p, 'workspace:edit', { workgroupId: ws.workgroup_id, workspaceId: ws.id });
    checkIfMatch(ctx.ifMatch, current.version_number);
    if (body.id !== undefined && body.id !== scheduleId)
      throw invalid('id', `must be the schedule id of the path, ${scheduleId}`);
    const sameRepeat = body.repeat === current.repeat;
    const merged: ScheduleBody = {
      ...body,
      date: body.date ?? (sameRepeat ? (current.date ?? undefined) : undefined),
      repeat_on: body.repeat_on ?? (sameRepeat ? (current.repeat_on ?? undefined) : undefined),
      action: body.action ?? (current.action as ScheduleAction),
      workspace_type_name:
        body.workspace_type_name ??
        (body.action && body.action !== 'resize' ? undefined : (current.workspace_type_name ?? undefined)),
    };
    const fields = this.validate(p, ws, merged, this.clock.now());
    if (!(await this.store.transaction((trx) => repo.updateSchedule(trx, current, fields, this.clock.now())))) {
      throw conflict('version_number', 'the schedule was changed by another request; read it again and retry');
    }
    return scheduleId;
  }

  async list(p: Principal, ref: WorkspaceRef): Promise<ScheduleRecord[]> {
    const ws = await this.workspace(p, ref);
    const rows = await repo.listSchedulesOfWorkspace(this.store.db, ws.id);
    const last = await repo.lastRuns(
      this.store.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => scheduleRecord(r, last.get(r.id)));
  }

  async get(p: Principal, ref: WorkspaceRef, scheduleId: string): Promise<ScheduleRecord> {
    const ws = await this.workspace(p, ref);
    const row = await this.find(p, ws, scheduleId);
    return scheduleRecord(row, (await repo.lastRuns(this.store.db, [row.id])).get(row.id));
  }

  async delete(p: Principal, ref: WorkspaceRef, scheduleId: string, ctx: RequestContext): Promise<ScheduleRecord> {
    const ws = await this.workspace(p, ref);
    const row = await this.find(p, ws, scheduleId);
    authorize(p, 'workspace:edit', { workgroupId: ws.workgroup_id, workspaceId: ws.id });
    checkIfMatch(ctx.ifMatch, row.version_number);
    const record = await this.get(p, ref, scheduleId);
    await this.store.transaction((trx) => repo.deleteSchedule(trx, row.id));
    return record;
  }

  /** The stored fields of a valid schedule body, with its first occurrence. */
  private validate(p: Principal, ws: Workspace, body: ScheduleBody, now: number) {
    const problems = new Problems();
    if (body.workspace_id !== ws.id) problems.add('workspace_id', `must be the workspace of the path, ${ws.id}`);
    checkTiming(problems, body);
    const action = body.action ?? 'resize';
    if (action === 'resize') {
      if (!body.workspace_type_name) problems.add('workspace_type_name', 'is required for a resize schedule');
      else if (!findSize(this.catalog, body.workspace_type_name))
        problems.add(
          'workspace_type_name',
          `must be one of ${this.catalog.workspace_sizes.map((s) => s.typeName).join(', ')}`,
        );
      else if (!ws.is_rw) problems.add('workspace_type_name', 'only read-write workspaces can be resized');
    } else if (body.workspace_type_name)
      problems.add('workspace_type_name', `applies only to the resize action, not ${action}`);
    problems.throwIfAny();
    if (action === 'resize') checkTierSize(this.catalog, p, 'workspace_type_name', body.workspace_type_name!);

    const days = body.repeat_on ? parseRepeatOn(body.repeat_on) : undefined;
    const fields = {
      repeat: body.repeat,
      date: body.repeat === 'once' ? body.date! : null,
      repeat_on: days ? formatRepeatOn(days) : null,
      time: body.time,
      timezone: body.timezone,
      action,
      workspace_type_name: action === 'resize' ? body.workspace_type_name! : null,
    };
    const next = nextOccurrence(timingOf(fields), now);
    if (next === undefined) throw invalid('date', 'the schedule has no occurrence in the future');
    return { ...fields, next_run_at: next };
  }

  private workspace(p: Principal, ref: WorkspaceRef, tx?: Tx): Promise<Workspace> {
    return this.workspaces.find(p, ref.workgroupId, ref.workspaceId, tx);
  }

  private async find(p: Principal, ws: Workspace, scheduleId: string): Promise<Schedule> {
    const row = await repo.findSchedule(this.store.db, p.orgId, scheduleId);
    if (!row || row.workspace_id !== ws.id)
      throw notFound('scheduleID', `no schedule "${scheduleId}" on workspace ${ws.id}`);
    return row;
  }
}
