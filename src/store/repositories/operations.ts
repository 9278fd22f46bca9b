import { sql, type Selectable } from 'kysely';
import type { OperationsTable } from '../schema.js';
import { claimSkippingLocked } from '../capabilities.js';
import type { Executor } from '../store.js';
import { keyset, toPage, type CursorPosition, type PageResult } from '../pagination.js';
import type { Tx } from '../unit-of-work.js';

export type OperationState = 'pending' | 'running' | 'succeeded' | 'failed';

export interface Operation<P = Record<string, unknown>> extends Omit<
  Selectable<OperationsTable>,
  'params' | 'progress' | 'state'
> {
  state: OperationState;
  params: P;
  progress: Record<string, unknown>;
}

function fromRow(row: Selectable<OperationsTable>): Operation {
  return {
    ...row,
    state: row.state as OperationState,
    params: JSON.parse(row.params),
    progress: row.progress ? JSON.parse(row.progress) : {},
  };
}

export interface NewOperation {
  id: string;
  org_id: string;
  resource_type: string;
  resource_id: string;
  kind: string;
  params: Record<string, unknown>;
  max_attempts: number;
  run_at: number;
  created_at: number;
}

/** Inserts a pending operation; returns it as a read of it would. */
export async function insertOperation(tx: Tx, op: NewOperation): Promise<Operation> {
  const row = {
    ...op,
    params: JSON.stringify(op.params),
    state: 'pending',
    attempt: 0,
    lease_owner: null,
    lease_expires_at: null,
    progress: null,
    error: null,
    updated_at: op.created_at,
    finished_at: null,
  };
  await tx.db.insertInto('operations').values(row).execute();
  tx.noteChange({ kind: 'operation', id: op.id, orgId: op.org_id, change: 'started' });
  return fromRow(row);
}

export async function findOperation(db: Executor, orgId: string, id: string): Promise<Operation | undefined> {
  const row = await db
    .selectFrom('operations')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && fromRow(row);
}

export async function findOperationById(db: Executor, id: string): Promise<Operation | undefined> {
  const row = await db.selectFrom('operations').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

export async function listOperations(
  db: Executor,
  orgId: string,
  resourceId: string | undefined,
  limit?: number,
  after?: CursorPosition,
): Promise<PageResult<Operation>> {
  let query = db.selectFrom('operations').selectAll().where('org_id', '=', orgId);
  // A workspace's operations include those of its backups: taking one is a change to it too.
  if (resourceId)
    query = query.where((eb) =>
      eb.or([
        eb('resource_id', '=', resourceId),
        eb.and([
          eb('resource_type', '=', 'backup'),
          eb(
            'resource_id',
            'in',
            eb.selectFrom('backups').select('backups.id').where('backups.workspace_id', '=', resourceId),
          ),
        ]),
      ]),
    );
  const rows = await keyset(query, limit, after).execute();
  return toPage(rows.map(fromRow), limit);
}

/**
 * Deletes operations that finished before `before` (through the finished_at index), but for
 * those still named: the failed operation of a Failed workspace (a resume runs it again) and
 * the operation of a schedule's kept run (its `last_run`). Returns how many went.
 */
export async function pruneFinishedOperations(db: Executor, before: number): Promise<number> {
  const result = await db
    .deleteFrom('operations')
    .where('finished_at', '<', before)
    .where('state', 'in', ['succeeded', 'failed'])
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('workspaces as w').select('w.id').whereRef('w.failed_operation_id', '=', 'operations.id'))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('schedule_runs as r').select('r.id').whereRef('r.operation_id', '=', 'operations.id'))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The operations of one kind still pending or running on a resource. */
export async function unfinishedOperationsOf(db: Executor, resourceId: string, kind: string): Promise<Operation[]> {
  const rows = await db
    .selectFrom('operations')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .where('kind', '=', kind)
    .where('state', 'in', ['pending', 'running'])
    .execute();
  return rows.map(fromRow);
}

/**
 * Leases up to `limit` operations that are due, or whose lease expired (their worker died).
 * On PostgreSQL, SKIP LOCKED lets several processes claim side by side without waiting on
 * each other; SQLite has one writer, so the transaction alone serialises claims.
 */
export async function claimDueOperations(
  trx: Executor,
  owner: string,
  now: number,
  leaseMs: number,
  limit: number,
): Promise<Operation[]> {
  const due = trx
    .selectFrom('operations')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', now)]),
        eb.and([eb('state', '=', 'running'), eb('lease_expires_at', '<=', now)]),
      ]),
    )
    .orderBy('run_at')
    .limit(limit);
  const ids = (await claimSkippingLocked(trx, due).execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  await trx
    .updateTable('operations')
    .set({
      state: 'running',
      lease_owner: owner,
      lease_expires_at: now + leaseMs,
      attempt: sql<number>`attempt + 1`,
      updated_at: now,
    })
    .where('id', 'in', ids)
    .execute();
  const rows = await trx.selectFrom('operations').selectAll().where('id', 'in', ids).orderBy('run_at').execute();
  return rows.map(fromRow);
}

interface LeasedChanges {
  attempt?: number;
  run_at?: number;
  progress?: Record<string, unknown>;
  error?: string | null;
  finished_at?: number;
}

/**
 * Puts an operation this owner still holds back to pending (a retry, a wait, a step given
 * back); false when the lease was lost. Retries and waits are the operation's own business:
 * no event, so no unit of work needed.
 */
export async function rescheduleLeasedOperation(
  db: Executor,
  id: string,
  owner: string,
  changes: LeasedChanges,
  now: number,
): Promise<boolean> {
  return updateLeasedOperation(db, id, owner, 'pending', changes, now);
}

/** Ends an operation this owner still holds; false when the lease was lost. Its end is an event. */
export async function endLeasedOperation(
  tx: Tx,
  id: string,
  owner: string,
  state: 'succeeded' | 'failed',
  changes: LeasedChanges,
  now: number,
): Promise<boolean> {
  const updated = await updateLeasedOperation(tx.db, id, owner, state, changes, now);
  if (updated) tx.noteChange({ kind: 'operation', id, change: state });
  return updated;
}

async function updateLeasedOperation(
  db: Executor,
  id: string,
  owner: string,
  state: OperationState,
  changes: LeasedChanges,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('operations')
    .set({
      state,
      ...(changes.attempt !== undefined ? { attempt: changes.attempt } : {}),
      ...(changes.run_at !== undefined ? { run_at: changes.run_at } : {}),
      ...(changes.progress !== undefined ? { progress: JSON.stringify(changes.progress) } : {}),
      ...(changes.error !== undefined ? { error: changes.error } : {}),
      ...(changes.finished_at !== undefined ? { finished_at: changes.finished_at } : {}),
      lease_owner: state === 'running' ? owner : null,
      lease_expires_at: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The earliest instant after `after` at which an operation becomes due (to run, or to be reclaimed). */
export async function nextOperationDueAt(db: Executor, after: number): Promise<number | undefined> {
  const pending = await db
    .selectFrom('operations')
    .select((eb) => eb.fn.min('run_at').as('at'))
    .where('state', '=', 'pending')
    .where('run_at', '>', after)
    .executeTakeFirst();
  const leased = await db
    .selectFrom('operations')
    .select((eb) => eb.fn.min('lease_expires_at').as('at'))
    .where('state', '=', 'running')
    .where('lease_expires_at', '>', after)
    .executeTakeFirst();
  const times = [pending?.at, leased?.at].filter((t): t is number => t != null).map(Number);
  return times.length ? Math.min(...times) : undefined;
}

/**
 * The leases other workers hold at `now` (unexpired), one key per operation and lease: a
 * lease taken again, even of the same operation, is a new key.
 */
export async function leasesHeldElsewhere(db: Executor, owner: string, now: number): Promise<string[]> {
  const rows = await db
    .selectFrom('operations')
    .select(['id', 'lease_owner', 'lease_expires_at'])
    .where('state', '=', 'running')
    .where('lease_owner', '!=', owner)
    .where('lease_expires_at', '>', now)
    .execute();
  return rows.map((r) => `${r.id}:${r.lease_owner}:${r.lease_expires_at}`);
}
