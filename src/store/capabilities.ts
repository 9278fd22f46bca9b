import type { SelectQueryBuilder } from 'kysely';
import { dialectOf } from './dialect-of.js';
import type { Executor } from './store.js';

/**
 * What the two stores do differently, named for what the repositories need rather than for
 * the store. Each capability asks the executor it is given which store it talks to, so the
 * domain and the engine never pass a dialect around: a repository takes the executor it was
 * handed and gets the right SQL.
 *
 * A SQLite transaction holds the database's write lock from BEGIN IMMEDIATE to COMMIT, so
 * whatever PostgreSQL needs a row lock for is serialised there already.
 */

/**
 * `query` reading rows to change in this transaction: on PostgreSQL they stay locked (FOR
 * UPDATE) until it ends, so a concurrent writer waits rather than acting on what this one is
 * about to change; on SQLite the read as it is.
 */
export function lockedForUpdate<DB, TB extends keyof DB, O>(
  executor: Executor,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialectOf(executor) === 'postgres' ? query.forUpdate() : query;
}

/**
 * Locks the rows `query` selects until the transaction ends, for their children's
 * count-then-insert or a quota check; on SQLite it runs nothing, the write lock being held.
 */
export async function lockRows<DB, TB extends keyof DB, O>(
  executor: Executor,
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<void> {
  if (dialectOf(executor) === 'postgres') await query.forUpdate().execute();
}

/**
 * `query` choosing rows to claim: on PostgreSQL it locks them and passes over rows another
 * transaction has locked (FOR UPDATE SKIP LOCKED), so several processes claim side by side
 * without waiting on each other; on SQLite, one writer at a time, the read as it is.
 */
export function claimSkippingLocked<DB, TB extends keyof DB, O>(
  executor: Executor,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialectOf(executor) === 'postgres' ? query.forUpdate().skipLocked() : query;
}

/**
 * Whether transactions on this executor can take transaction-level advisory locks and notify
 * listeners at commit (PostgreSQL's pg_advisory_xact_lock and pg_notify). SQLite needs
 * neither: one writer at a time commits in order, and other processes poll the file.
 */
export function hasAdvisoryLocksAndNotify(executor: Executor): boolean {
  return dialectOf(executor) === 'postgres';
}
