import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Timestamp } from './helpers.js';
import { Component } from './component.js';

/** The kinds of resource an event may be about. */
export const eventResourceKinds = [
  'workgroup',
  'workspace',
  'database',
  'backup',
  'schedule',
  'operation',
  'allow_list_entry',
  'organisation',
  'addon_request',
] as const;
export type EventResourceKind = (typeof eventResourceKinds)[number];

/** Every event type, `<resource kind>.<what happened>`: the closed list clients may filter on. */
export const eventTypes = [
  'workgroup.created',
  'workgroup.updated',
  'workgroup.deleted',
  'workgroup.expired',
  'workspace.created',
  'workspace.updated',
  'workspace.status_changed',
  'workspace.deleted',
  'database.created',
  'database.updated',
  'database.deleted',
  'backup.created',
  'backup.updated',
  'backup.status_changed',
  'backup.deleted',
  'schedule.created',
  'schedule.updated',
  'schedule.deleted',
  'schedule.run_started',
  'schedule.run_skipped',
  'operation.started',
  'operation.succeeded',
  'operation.failed',
  'allow_list_entry.created',
  'allow_list_entry.updated',
  'allow_list_entry.deleted',
  'organisation.delinquent',
  'organisation.reinstated',
  'addon_request.created',
] as const;
export type EventType = (typeof eventTypes)[number];

/** One change to a resource of the organisation, as the stream and the JSON pages carry it. */
export const EventRecord = Component(
  'EventRecord',
  Type.Object(
    {
      event_id: Type.Integer({ description: 'grows with every event; resume after it with Last-Event-ID or since' }),
      type: StringEnum(eventTypes),
      resource_kind: StringEnum(eventResourceKinds),
      resource_id: Type.String(),
      workgroup_id: Type.Optional(Type.String()),
      workspace_id: Type.Optional(Type.String()),
      org_id: Type.String(),
      time: Timestamp,
      data: Type.Unknown({
        description:
          "the resource's record after the change, as the API returns it (no secrets); for a deletion, its id",
      }),
    },
    { description: 'A change to a resource of the organisation (see docs/events.md).' },
  ),
);
export type EventRecord = Static<typeof EventRecord>;

const TypeFilter = Type.String({ minLength: 1, maxLength: 2048 });

export const EventsQuery = Type.Object({
  format: Type.Optional(
    StringEnum(['sse', 'json'] as const, {
      description: 'sse: a Server-Sent Events stream (also chosen by Accept: text/event-stream); json: one page',
    }),
  ),
  since: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 999_999_999_999_999,
      description: 'the events after this event_id (Last-Event-ID does the same)',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'json: events per page (default 100)' })),
  resource_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  workgroup_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  type: Type.Optional(
    Type.Union([TypeFilter, Type.Array(TypeFilter, { maxItems: 64 })], {
      description: 'event types to keep: repeat the parameter or give a comma-separated list',
    }),
  ),
});
