import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';
import type { DialectName } from './dialect-of.js';
import { UnitOfWork, type EventWriter, type Tx } from './unit-of-work.js';

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

/**
 * The store's transactions: each on a connection of its own, its unit of work (a Tx) handed
 * to the function it runs. Code already inside a unit takes a savepoint of it instead
 * (`tx.savepoint`), never a second transaction.
 */
export class Transactions {
  private writer: EventWriter | undefined;
  private readonly committedEvents = new Set<() => void>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: DialectName,
  ) {}

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
   * BEGIN, fn, COMMIT on one connection; rolls back when fn rejects. Callbacks given to the
   * unit's `afterCommit` run once it has committed. SQLite takes the write lock up front
   * (BEGIN IMMEDIATE): a deferred transaction that reads and then writes fails at once with
   * SQLITE_BUSY when another connection (the CLI, another process) wrote in between.
   */
  async run<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const sqlite = this.dialect === 'sqlite';
    let wrote = 0;
    const [result, tx] = await this.db.connection().execute(async (conn): Promise<[T, UnitOfWork]> => {
      await (sqlite ? sql`begin immediate` : sql`begin`).execute(conn);
      const tx = new UnitOfWork(conn, this.dialect);
      let result: T;
      try {
        result = await fn(tx);
        // The events of the changes go in last, so their lock (see src/domain/events.ts) is held only to COMMIT.
        if (tx.notes.length > 0 && this.writer) wrote = await this.writer(tx, tx.notes);
      } catch (err) {
        await rollback(conn);
        throw err;
      }
      try {
        await sql`commit`.execute(conn);
      } catch (err) {
        await rollback(conn);
        throw new CommitFailed(err, sqlite);
      }
      return [result, tx];
    });
    for (const callback of tx.committed) callback();
    if (wrote > 0) for (const listener of [...this.committedEvents]) listener();
    return result;
  }
}

/** Rolls back what may still be open; a connection that is gone has nothing left to roll back. */
async function rollback(conn: Kysely<DB>): Promise<void> {
  await sql`rollback`.execute(conn).catch(() => undefined);
}
