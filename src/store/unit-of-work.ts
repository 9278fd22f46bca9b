import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';
import type { EventResourceKind } from '../schemas/event.js';
import type { DialectName } from './dialect-of.js';

/**
 * A unit of work: one open transaction and what it gathers until it commits. Whoever opens
 * it (`store.transaction`) hands it down to every write made in it, explicitly: a repository
 * that changes a resource takes the Tx and notes the change on it, so a write path cannot run
 * in a transaction without the rest of it knowing. `store.db` is never inside one.
 */
export interface Tx {
  /** The transaction's connection: every statement of the unit runs on it. */
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  /**
   * Notes a change a repository made; before COMMIT the store hands the notes to the event
   * writer (src/domain/events.ts), so a change and its event commit together or not at all.
   */
  noteChange(change: NotedChange): void;
  /**
   * The record of a resource as the unit's own answer shows it, built after its last change:
   * the event writer uses it rather than reading and building it again.
   */
  offerRecord(kind: string, id: string, record: unknown): void;
  /** The record offered for a resource in this unit, if any. */
  offeredRecord(kind: string, id: string): unknown;
  /** Runs callback once the unit has committed, outside it; never after a rollback. */
  afterCommit(callback: () => void): void;
  /** Runs fn in a savepoint of this unit: its failure undoes its own writes only, and the unit may go on. */
  savepoint<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

/**
 * A change a repository made, noted on the unit of work that made it (`tx.noteChange`).
 * Before that unit commits, the store hands its notes to the event writer
 * (src/domain/events.ts), which turns them into event rows in the same transaction: a change
 * and its event commit together or not at all, and no write path can forget to emit, since the
 * repository notes it.
 */
export interface NotedChange {
  /** The resource kind (`workspace`, `operation`…): one that has events, each with its source. */
  kind: EventResourceKind;
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

/** Writes the events of a unit's notes inside it; returns how many rows it wrote. */
export type EventWriter = (tx: Tx, changes: readonly NotedChange[]) => Promise<number>;

/** The unit of one transaction, as the store opens it (src/store/transactions.ts). */
export class UnitOfWork implements Tx {
  /** The changes noted so far, in order. */
  readonly notes: NotedChange[] = [];
  /** Callbacks to run once committed. */
  readonly committed: Array<() => void> = [];
  /** Records built of resources this unit changed, by `kind:id`. */
  private readonly offers = new Map<string, unknown>();
  private savepoints = 0;

  constructor(
    readonly db: Kysely<DB>,
    readonly dialect: DialectName,
  ) {}

  noteChange(change: NotedChange): void {
    this.notes.push(change);
    // A record offered before this change no longer shows the state the unit commits.
    this.offers.delete(`${change.kind}:${change.id}`);
  }

  offerRecord(kind: string, id: string, record: unknown): void {
    this.offers.set(`${kind}:${id}`, record);
  }

  offeredRecord(kind: string, id: string): unknown {
    return this.offers.get(`${kind}:${id}`);
  }

  afterCommit(callback: () => void): void {
    this.committed.push(callback);
  }

  async savepoint<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const name = sql.raw(`acacia_${++this.savepoints}`);
    const noted = this.notes.length;
    await sql`savepoint ${name}`.execute(this.db);
    try {
      const result = await fn(this);
      await sql`release savepoint ${name}`.execute(this.db);
      return result;
    } catch (err) {
      await sql`rollback to savepoint ${name}`.execute(this.db).catch(() => undefined);
      // What the savepoint undid happened to no one: its changes are no events.
      this.notes.length = noted;
      throw err;
    }
  }
}
