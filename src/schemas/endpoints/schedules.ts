import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { WorkspaceIdParams, WorkspaceParams } from '../workspace.js';
import { ScheduleBody, ScheduleParams, ScheduleRecord, ShortScheduleParams } from '../schedule.js';
import { endpoint } from './spec.js';

const tags = ['Schedules'] as const;
const all = `${API_PREFIX}/workgroups/{workgroupID}/workspaces/{workspaceID}/schedules` as const;
const short = `${API_PREFIX}/workspaces/{workspaceID}/schedules` as const;
const byWorkspaceId = 'The same as under /workgroups/{workgroupID}, naming the workspace by its id alone.';

const updateText =
  'Operation 8. Replaces the schedule; optional fields omitted keep their value unless `repeat` changes. ' +
  'The Result is the schedule id. With If-Match, applied only to that version_number.';

export const scheduleEndpoints = {
  createSchedule: endpoint({
    method: 'POST',
    path: all,
    summary: 'Create a workspace schedule',
    description:
      'Operation 7. A timed action on the workspace: `action` resize (the default, needs ' +
      '`workspace_type_name`), pause or resume, `repeat` daily, weekly (with `repeat_on`), weekdays or once ' +
      '(with `date`), at `time` in `timezone`. Each run starts an operation (GET /operations?resource_id=).',
    tags,
    params: WorkspaceParams,
    body: Ref(ScheduleBody),
    result: Ref(ScheduleRecord),
    errors: [403, 404, 409],
    message: 'Schedule created.',
    client: 'schedules.create',
  }),
  listSchedules: endpoint({
    method: 'GET',
    path: all,
    summary: 'List the schedules of a workspace',
    description: 'Every schedule of the workspace, with its next and last run.',
    tags,
    params: WorkspaceParams,
    result: Type.Array(Ref(ScheduleRecord)),
    errors: [404],
    client: 'schedules.list',
  }),
  getSchedule: endpoint({
    method: 'GET',
    path: `${all}/{scheduleID}`,
    summary: 'Get a schedule',
    description: 'The schedule with its next run and its last firing; ETag carries its version_number.',
    tags,
    params: ScheduleParams,
    result: Ref(ScheduleRecord),
    errors: [404],
    etag: true,
    client: 'schedules.get',
  }),
  updateSchedule: endpoint({
    method: 'PUT',
    path: `${all}/{scheduleID}`,
    summary: 'Update a workspace schedule',
    description: updateText,
    tags,
    params: ScheduleParams,
    body: Ref(ScheduleBody),
    result: Type.String({ description: 'the schedule id' }),
    errorResult: Type.Object({}),
    errors: [403, 404, 409, 412],
    ifMatch: true,
    message: 'Schedule updated.',
    client: 'schedules.update',
  }),
  deleteSchedule: endpoint({
    method: 'DELETE',
    path: `${all}/{scheduleID}`,
    summary: 'Delete a workspace schedule',
    description: "The Result is the deleted schedule's id (a string, as the real service documents it).",
    tags,
    params: ScheduleParams,
    result: Type.String({ description: 'the deleted schedule id' }),
    errors: [403, 404, 412],
    ifMatch: true,
    message: 'Schedule deleted.',
    client: 'schedules.delete',
  }),
  listSchedulesShort: endpoint({
    method: 'GET',
    path: short,
    summary: 'List the schedules of a workspace (by workspace id)',
    description: byWorkspaceId,
    tags,
    params: WorkspaceIdParams,
    result: Type.Array(Ref(ScheduleRecord)),
    errors: [404],
    client: 'schedules.listShort',
  }),
  getScheduleShort: endpoint({
    method: 'GET',
    path: `${short}/{scheduleID}`,
    summary: 'Get a schedule (by workspace id)',
    description: byWorkspaceId,
    tags,
    params: ShortScheduleParams,
    result: Ref(ScheduleRecord),
    errors: [404],
    etag: true,
    client: 'schedules.getShort',
  }),
  updateScheduleShort: endpoint({
    method: 'PUT',
    path: `${short}/{scheduleID}`,
    summary: 'Update a workspace schedule (by workspace id)',
    description: `${updateText} ${byWorkspaceId}`,
    tags,
    params: ShortScheduleParams,
    body: Ref(ScheduleBody),
    result: Type.String({ description: 'the schedule id' }),
    errorResult: Type.Object({}),
    errors: [403, 404, 409, 412],
    ifMatch: true,
    message: 'Schedule updated.',
    client: 'schedules.updateShort',
  }),
  deleteScheduleShort: endpoint({
    method: 'DELETE',
    path: `${short}/{scheduleID}`,
    summary: 'Delete a workspace schedule (by workspace id)',
    description:
      "The Result is the deleted schedule's id (a string, as the real service documents it). " + byWorkspaceId,
    tags,
    params: ShortScheduleParams,
    result: Type.String({ description: 'the deleted schedule id' }),
    errors: [403, 404, 412],
    ifMatch: true,
    message: 'Schedule deleted.',
    client: 'schedules.deleteShort',
  }),
} as const;
