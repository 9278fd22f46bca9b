import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * A change a repository made, noted on the transaction that made it. Before that transaction
 * commits, the store hands its notes to the event writer (src/domain/events.ts), which turns
 * them into event rows in the same transaction: a change and its event commit together or
 * not at all, and no write path can forget to emit, since the repository notes it.
 */
export interface NotedChange {
  /** The resource kind (`workspace`, `operation`…). */
  kind: string;
  id: string;
  /** Read from the record by the writer when the repository does not know it. */
  orgId?: string;
  /**
   * `created`, `updated`, `status_changed` and `deleted` of one resource in one transaction
   * become one event; anything else (`started`, `run_skipped`…) is an event of its own.
   */
  change: string;
  workgroupId?: string | null;
  workspaceId?: string | null;
  /** The event's data when the writer cannot read the record (it is gone, or has no record of its own). */
  data?: unknown;
}

/** Writes the events of a transaction's notes inside it; returns how many rows it wrote. */
export type EventWriter = (trx: Kysely<DB>, changes: readonly NotedChange[]) => Promise<number>;

// Keyed by the transaction's executor, which every repository call inside it receives.
const journals = new WeakMap<object, NotedChange[]>();

/** Records a transaction built of resources it changed, by `kind:id` (see offerRecord). */
const offers = new WeakMap<object, Map<string, unknown>>();

/** Notes a change made through db; a write outside a transaction (none emits events) notes nothing. */
export function noteChange(db: object, change: NotedChange): void {
  journals.get(db)?.push(change);
  // A record offered before this change no longer shows the state the transaction commits.
  offers.get(db)?.delete(`${change.kind}:${change.id}`);
}

/**
 * The record of a resource as the transaction's own answer shows it, built after its last
 * change: the event writer uses it rather than reading and building it again.
 */
export function offerRecord(db: object, kind: string, id: string, record: unknown): void {
  if (!journals.has(db)) return;
  let offered = offers.get(db);
  if (!offered) offers.set(db, (offered = new Map()));
  offered.set(`${kind}:${id}`, record);
}

/** The record offered for a resource in this transaction, if any. */
export function offeredRecord(db: object, kind: string, id: string): unknown {
  return offers.get(db)?.get(`${kind}:${id}`);
}

/** Starts noting the changes made through trx. */
export function openJournal(trx: object): NotedChange[] {
  const journal: NotedChange[] = [];
  journals.set(trx, journal);
  return journal;
}

export function closeJournal(trx: object): void {
  journals.delete(trx);
  offers.delete(trx);
}
