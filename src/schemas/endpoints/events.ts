import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { EventRecord, EventsQuery } from '../event.js';
import { endpoint } from './spec.js';

export const eventEndpoints = {
  listEvents: endpoint({
    method: 'GET',
    path: `${API_PREFIX}/events`,
    summary: 'Follow or page the organisation’s events',
    description:
      'Every change to a resource of the organisation, in event_id order. With `Accept: text/event-stream` ' +
      '(or `format=sse`) a Server-Sent Events stream: `id`, `event` (the type) and `data` (this record as JSON) ' +
      'per event, heartbeat comments while idle; `Last-Event-ID` or `since` resumes right after an event, ' +
      'without loss or repetition. Otherwise one page of up to `limit` events after `since` (default 0); when ' +
      'the page is full, X-Next-Cursor holds the `since` of the next. Filters: `resource_id`, `workgroup_id`, ' +
      '`type` (repeated or comma-separated). A key scoped to workgroups or workspaces sees only their events. ' +
      'See docs/events.md.',
    tags: ['Events'],
    query: EventsQuery,
    result: Type.Array(Ref(EventRecord)),
    errors: [],
    client: 'events.list',
  }),
} as const;
