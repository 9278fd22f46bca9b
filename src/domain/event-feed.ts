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

/**
 * The most bytes of event data one read returns (a page of GET /events, a stream's batch),
 * except that a read always returns its first event. Events are 0.5 to 1.5 KiB, a workspace's
 * at most some 67 KiB (docs/events.md): a page of 1000 ordinary events is never cut, one of
 * large events holds about sixty.
 */
export const EVENT_READ_BUDGET_BYTES = 4 * 1024 * 1024;

/**
 * Events in id order, and whether more already follow them: `more` is true when the read
 * stopped at its limit or at EVENT_READ_BUDGET_BYTES, and the next read starts after the last
 * event of this one. A page cut by the budget has fewer events than its limit and still
 * `more`: its length does not say whether it is the last.
 */
export interface EventBatch {
  items: EventRecord[];
  /** Whether events after these may match: the limit or the read's size budget was reached. */
  more: boolean;
}

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

  async read(p: Principal, q: EventQuery): Promise<EventBatch> {
    const filter: EventFilter = {
      orgId: p.orgId,
      after: q.since,
      limit: q.limit,
      budgetBytes: EVENT_READ_BUDGET_BYTES,
      resourceId: q.resourceId,
      workgroupId: q.workgroupId,
      types: q.types,
      ...(p.role === 'workgroup-admin' ? { workgroupIds: p.workgroupIds } : {}),
      ...(p.role === 'workspace-admin' ? { workspaceIds: p.workspaceIds } : {}),
    };
    const { rows, more } = await listEvents(this.store.db, filter);
    return { items: rows.map(eventRecord), more };
  }

  /** The organisation's newest event id now (0 when none): where a stream without a position starts. */
  newest(p: Principal): Promise<number> {
    return newestEventIdOf(this.store.db, p.orgId);
  }
}
