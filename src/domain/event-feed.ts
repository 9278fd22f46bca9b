import { listEvents, newestEventIdOf, type EventFilter } from '../store/repositories/events.js';
import type { Store } from '../store/store.js';
import { eventTypes, type EventRecord, type EventType } from '../schemas/event.js';
import { invalid } from './errors.js';
import { eventRecord } from './events.js';
import type { Principal } from './principal.js';

/** What a reader asks of the event log (all optional but the position). */
export interface EventQuery {
  /** Events after this id. */
  since: number;
  limit: number;
  resourceId?: string | undefined;
  workgroupId?: string | undefined;
  types?: readonly EventType[] | undefined;
}

const known = new Set<string>(eventTypes);

/** `type` as given (repeated, or a comma-separated list); a type that does not exist is a 400 naming it. */
export function parseEventTypes(raw: string | readonly string[] | undefined): EventType[] | undefined {
  if (raw === undefined) return undefined;
  const types = ([] as string[])
    .concat(raw)
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = types.find((t) => !known.has(t));
  if (unknown !== undefined)
    throw invalid('type', `"${unknown.slice(0, 64)}" is not an event type (see docs/events.md)`);
  if (types.length === 0) throw invalid('type', 'names no event type');
  return [...new Set(types)] as EventType[];
}

/** Last-Event-ID as a position: a whole number, like the ids the stream sends. */
export function parseLastEventId(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw invalid('Last-Event-ID', 'must be an event_id the stream sent (a whole number)');
  return Number(raw);
}

/**
 * The organisation's events as a caller may read them: an organisation sees only its own;
 * a key scoped to workgroups or workspaces sees only the events of those (so none about
 * the organisation's keys, providers or other workgroups).
 */
export class EventFeed {
  constructor(private readonly store: Store) {}

  async read(p: Principal, q: EventQuery): Promise<EventRecord[]> {
    const filter: EventFilter = {
      orgId: p.orgId,
      after: q.since,
      limit: q.limit,
      resourceId: q.resourceId,
      workgroupId: q.workgroupId,
      types: q.types,
      ...(p.role === 'workgroup-admin' ? { workgroupIds: p.workgroupIds } : {}),
      ...(p.role === 'workspace-admin' ? { workspaceIds: p.workspaceIds } : {}),
    };
    return (await listEvents(this.store.db, filter)).map(eventRecord);
  }

  /** The organisation's newest event id now (0 when none): where a stream without a position starts. */
  newest(p: Principal): Promise<number> {
    return newestEventIdOf(this.store.db, p.orgId);
  }
}
