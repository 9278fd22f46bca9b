import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, StringEnum, Timestamp } from './helpers.js';
import { Component } from './component.js';
import { firingOutcomes } from './backup.js';
import { repeats, scheduleActions } from './vocabulary.js';

const Opt = Type.Optional;

/** The Schedule record of the contract, with the service's extension fields. */
export const ScheduleRecord = Component(
  'ScheduleRecord',
  Type.Object(
    {
      id: Type.String(),
      workspace_id: Type.String(),
      repeat: StringEnum(repeats),
      date: Opt(Type.String({ description: 'YYYY-MM-DD, when repeat is once' })),
      repeat_on: Opt(Type.String({ description: 'weekly: days, e.g. Sun,Wed' })),
      time: Type.String({ description: 'HH:mm, 24-hour' }),
      timezone: Type.String({ description: 'IANA time zone' }),
      workspace_type_name: Opt(Type.String()),
      action: StringEnum(scheduleActions, { description: 'extension: resize (default), pause or resume' }),
      next_run_at: Opt(Timestamp),
      last_run: Opt(
        Type.Object({
          occurrence_at: Timestamp,
          fired_at: Timestamp,
          outcome: StringEnum(firingOutcomes),
          reason: Opt(Type.String()),
          operation_id: Opt(Type.String({ description: 'the operation it started (GET /operations/{id})' })),
        }),
      ),
      created_at: Timestamp,
      version_number: Type.Integer(),
    },
    { description: 'A timed action on a workspace: resize it, pause it or resume it.' },
  ),
);
export type ScheduleRecord = Static<typeof ScheduleRecord>;

/** Operations 7 and 8: the Schedule record as a request (required: repeat, time, timezone, workspace_id). */
export const ScheduleBody = Component(
  'ScheduleBody',
  Body({
    id: Opt(Type.String({ maxLength: 64 })),
    repeat: StringEnum(repeats),
    date: Opt(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, when repeat is once' })),
    repeat_on: Opt(Type.String({ maxLength: 64, description: 'weekly: comma-separated Sun,Mon,Tue,Wed,Thu,Fri,Sat' })),
    time: Type.String({ maxLength: 5, description: 'HH:mm, 24-hour' }),
    timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' }),
    workspace_id: Type.String({ minLength: 1, maxLength: 64, description: "must be the path's workspace" }),
    workspace_type_name: Opt(Type.String({ minLength: 1, maxLength: 32 })),
    action: Opt(StringEnum(scheduleActions)),
  }),
);
export type ScheduleBody = Static<typeof ScheduleBody>;

export const ScheduleParams = Type.Object({ workgroupID: Id, workspaceID: Id, scheduleID: Id });
export const ShortScheduleParams = Type.Object({ workspaceID: Id, scheduleID: Id });
