import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';
import { registerDialect, type DialectName } from './dialect-of.js';
import { closeJournal, openJournal, type EventWriter, type NotedChange } from './event-journal.js';

/**
 * COMMIT itself failed. On PostgreSQL, when the connection went meanwhile, the transaction
 * may or may not have been applied (`outcomeKnown` false); on SQLite it was not.
 */
export class CommitFailed extends Error {
  constructor(
    override readonly cause: unknown,
    readonly outcomeKnown: boolean,
  ) {
    super(`commit failed: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'CommitFailed';
  }
}

/** The transaction a unit of work runs in; the store's `db` and `transaction()` join it. */
interface Ambient {
  trx: Kysely<DB>;
  savepoints: number;
  afterCommit: Array<() => void>;
  journal: NotedChange[];
}

/** The after-commit callbacks of a transaction begun outside `within` (`transaction()` on its own). */
interface Plain {
  afterCommit: Array<() => void>;
}

/**
 * The store's transactions: one on a connection of its own, or, inside `within`, a savepoint
 * of the transaction the whole unit of work shares (found through AsyncLocalStorage, so the
 * domain's code runs unchanged inside it).
 */
export class Transactions {
  private readonly ambient = new AsyncLocalStorage<Ambient>();
  private readonly plain = new AsyncLocalStorage<Plain>();
  private writer: EventWriter | undefined;
  private readonly committedEvents = new Set<() => void>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: DialectName,
  ) {}

  /** The executor of the shared transaction this code runs in, if any. */
  current(): Kysely<DB> | undefined {
    return this.ambient.getStore()?.trx;
  }

  /** Runs fn in a transaction of its own, or in a savepoint of the shared one it runs in. */
  run<T>(fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    const ambient = this.ambient.getStore();
    return ambient ? savepoint(ambient, fn) : this.begin(fn);
  }

  /**
   * Runs fn with one transaction that every store access inside it shares; commits when fn
   * resolves, rolls back when it rejects. Callbacks given to `afterCommit` meanwhile run once
   * the transaction has committed, outside it.
   */
  async within<T>(fn: () => Promise<T>): Promise<T> {
    if (this.ambient.getStore()) throw new Error('already within a shared transaction');
    const afterCommit: Array<() => void> = [];
    const result = await this.begin(
      (trx, journal) => this.ambient.run({ trx, savepoints: 0, afterCommit, journal }, fn),
      afterCommit,
    );
    return result;
  }

  /** Runs callback once the transaction this code runs in commits (at once outside one). */
  afterCommit(callback: () => void): void {
    const open = this.ambient.getStore() ?? this.plain.getStore();
    if (open) open.afterCommit.push(callback);
    else callback();
  }

  /** Sets what turns each transaction's noted changes into event rows before it commits. */
  recordEventsWith(writer: EventWriter): void {
    this.writer = writer;
  }

  /** Calls listener after each commit of this process that wrote events; returns the unsubscribe. */
  onEventsCommitted(listener: () => void): () => void {
    this.committedEvents.add(listener);
    return () => this.committedEvents.delete(listener);
  }

  /**
   * BEGIN, fn, COMMIT on one connection. SQLite takes the write lock up front (BEGIN
   * IMMEDIATE): a deferred transaction that reads and then writes fails at once with
   * SQLITE_BUSY when another connection (the CLI, another process) wrote in between.
   */
  private async begin<T>(
    fn: (trx: Kysely<DB>, journal: NotedChange[]) => Promise<T>,
    afterCommit: Array<() => void> = [],
  ): Promise<T> {
    const sqlite = this.dialect === 'sqlite';
    let wrote = 0;
    const result = await this.db.connection().execute(async (conn) => {
      registerDialect(conn, this.dialect);
      await (sqlite ? sql`begin immediate` : sql`begin`).execute(conn);
      const journal = openJournal(conn);
      let result: T;
      try {
        result = await this.plain.run({ afterCommit }, () => fn(conn, journal));
        // The events of the changes go in last, so their lock (see src/domain/events.ts) is held only to COMMIT.
        if (journal.length > 0 && this.writer) wrote = await this.writer(conn, journal);
      } catch (err) {
        closeJournal(conn);
        await rollback(conn);
        throw err;
      }
      closeJournal(conn);
      try {
        await sql`commit`.execute(conn);
      } catch (err) {
        await rollback(conn);
        throw new CommitFailed(err, sqlite);
      }
      return result;
    });
    for (const callback of afterCommit) callback();
    if (wrote > 0) for (const listener of [...this.committedEvents]) listener();
    return result;
  }
}

/** Rolls back what may still be open; a connection that is gone has nothing left to roll back. */
async function rollback(conn: Kysely<DB>): Promise<void> {
  await sql`rollback`.execute(conn).catch(() => undefined);
}

/** fn inside a savepoint of the shared transaction: its failure undoes its own writes only. */
async function savepoint<T>(ambient: Ambient, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const name = sql.raw(`acacia_${++ambient.savepoints}`);
  const trx = ambient.trx;
  const noted = ambient.journal.length;
  await sql`savepoint ${name}`.execute(trx);
  try {
    const result = await fn(trx);
    await sql`release savepoint ${name}`.execute(trx);
    return result;
  } catch (err) {
    await sql`rollback to savepoint ${name}`.execute(trx).catch(() => undefined);
    // What the savepoint undid happened to no one: its changes are no events.
    ambient.journal.length = noted;
    throw err;
  }
}
