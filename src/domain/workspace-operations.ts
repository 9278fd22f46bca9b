import { newId } from './ids.js';
import type { Tx } from '../store/store.js';
import { insertOperation, type Operation } from '../store/repositories/operations.js';
import { nothingAsked } from '../store/models/workspace.js';
import { operationRecord } from './operations.js';
import * as wsRepo from '../store/repositories/workspaces.js';
import type { Workspace, WorkspaceChanges } from '../store/repositories/workspaces.js';
import { conflict } from './errors.js';
import { nextWindowStart } from './maintenance.js';
import {
  workspaceKindName,
  workspaceOperationKindOf,
  type AnyWorkspaceKind,
  type WorkspaceOpParams,
} from './operation-kinds/index.js';
import { NORMAL_CONDITION } from './workspace-lifecycle.js';

export type { WorkspaceOpParams };

export const MAX_ATTEMPTS = 3;

const concurrentChange = () =>
  conflict('version_number', 'the workspace was changed by another request; read it again and retry');

/**
 * Moves the workspace into the operation's transitional status and enqueues the operation,
 * in the caller's transaction, so either both happen or neither. The status check is a
 * compare-and-set on version_number: a concurrent change makes this fail with 409.
 */
export async function beginWorkspaceOperation(
  trx: Tx,
  ws: Workspace,
  params: WorkspaceOpParams,
  now: number,
  changes: WorkspaceChanges = {},
): Promise<{ operationId: string; workspace: Workspace }> {
  const kind = workspaceOperationKindOf(params.op);
  const t = kind.transition;
  const next: WorkspaceChanges = {
    ...changes,
    ...kind.requests?.(params),
    status: t.via,
    condition_type: t.condition,
    err_message: null,
  };
  if (!(await wsRepo.updateWorkspace(trx, ws, next, now))) throw concurrentChange();
  const operationId = await enqueueWorkspaceOperation(trx, ws, params, now);
  return { operationId, workspace: { ...ws, ...next, version_number: ws.version_number + 1, updated_at: now } };
}

/**
 * Enqueues the operation of a workspace that is in its transitional status already (a new
 * one is inserted in it), in the caller's transaction; its record is offered to the event it
 * starts. Returns its id.
 */
export async function enqueueWorkspaceOperation(
  trx: Tx,
  ws: Pick<Workspace, 'id' | 'org_id'>,
  params: WorkspaceOpParams,
  now: number,
): Promise<string> {
  const op = await insertOperation(trx, {
    id: newId(),
    org_id: ws.org_id,
    resource_type: 'workspace',
    resource_id: ws.id,
    kind: workspaceKindName(params.op),
    params,
    max_attempts: MAX_ATTEMPTS,
    run_at: now,
    created_at: now,
  });
  trx.offerRecord('operation', op.id, operationRecord(op));
  return op.id;
}

/**
 * Completes a workspace operation on the workspace as it is now: the driver's observed state
 * (`observed`, as the columns it writes), what the kind adds, its stable status, and nothing
 * asked any longer beyond what runs.
 */
export async function completeWorkspaceOperation(
  trx: Tx,
  kind: AnyWorkspaceKind,
  op: Operation,
  observed: WorkspaceChanges,
  now: number,
): Promise<void> {
  if (kind.complete) return kind.complete(trx, op.resource_id);
  await applyWorkspaceOutcome(trx, op.resource_id, now, async (ws) => ({
    ...observed,
    ...(await kind.completed?.(trx.db, ws, op.params, observed, now)),
    status: kind.settles?.(ws) ?? 'Active',
    condition_type: NORMAL_CONDITION,
    err_message: null,
    failed_operation_id: null,
    ...nothingAsked,
  }));
}

/**
 * Records a workspace operation's final failure: Failed with the driver's message, the
 * operation kept for a retry (resume re-runs it, asking again what it asked), and what it
 * asked put back, so the record shows what the workspace runs at. A kind that `failsTo` a
 * stable status instead leaves the workspace there, with the message and nothing to retry.
 * `params` is undefined when the stored parameters did not fit the kind.
 */
export async function failWorkspaceOperation(
  trx: Tx,
  kind: AnyWorkspaceKind,
  op: Operation,
  params: WorkspaceOpParams | undefined,
  message: string,
  now: number,
): Promise<void> {
  await applyWorkspaceOutcome(trx, op.resource_id, now, () => ({
    status: kind.failsTo ?? 'Failed',
    condition_type: NORMAL_CONDITION,
    err_message: message,
    failed_operation_id: kind.failsTo ? null : op.id,
    ...(params && kind.failed?.(params, message)),
    ...nothingAsked,
  }));
}

/**
 * Writes an operation's outcome on the workspace as it is now. While an operation runs,
 * requests may still change metadata (a rename, say); the outcome must not be lost to that,
 * or the workspace would stay in its transitional status for good. The row is locked while
 * the outcome is computed and written, so no request can change it in between. Nothing to
 * do once the workspace is gone.
 */
async function applyWorkspaceOutcome(
  trx: Tx,
  id: string,
  now: number,
  changesFor: (ws: Workspace) => WorkspaceChanges | Promise<WorkspaceChanges>,
): Promise<void> {
  const ws = await wsRepo.lockWorkspaceById(trx.db, id);
  if (!ws) return;
  if (!(await wsRepo.updateWorkspace(trx, ws, await changesFor(ws), now)))
    throw new Error(`workspace ${id} changed under its lock`);
}

/**
 * Starts the recovery of a workspace whose runtime the driver found gone, if it is still
 * Active at the version it was observed at (a request or another process may have moved it
 * since). True when it was started.
 */
export async function beginRecovery(
  trx: Tx,
  observed: Pick<Workspace, 'id' | 'version_number'>,
  reason: string,
  now: number,
): Promise<boolean> {
  const ws = await wsRepo.lockWorkspaceById(trx.db, observed.id);
  if (!ws || ws.status !== 'Active' || ws.version_number !== observed.version_number) return false;
  await beginWorkspaceOperation(trx, ws, { op: 'recover', reason: reason.slice(0, 1024) }, now);
  return true;
}

/** True when an Active workspace has been without activity for its auto-stop period at `now`. */
function isIdle(ws: Pick<Workspace, 'status' | 'auto_stop_minutes' | 'last_activity_at'>, now: number): boolean {
  return (
    ws.status === 'Active' && ws.auto_stop_minutes > 0 && ws.last_activity_at + ws.auto_stop_minutes * 60_000 <= now
  );
}

/**
 * Starts the auto-stop pause of a workspace found idle, if it still is. Activity through the
 * gateway does not change the version (it would turn every data-plane request into a
 * conflict for editors), so the candidate is read again under its row lock: a request that
 * reached the workspace after it was found idle keeps it running. True when it was paused.
 */
export async function autoStopIfIdle(trx: Tx, id: string, now: number): Promise<boolean> {
  const ws = await wsRepo.lockWorkspaceById(trx.db, id);
  if (!ws || !isIdle(ws, now)) return false;
  await beginWorkspaceOperation(trx, ws, { op: 'pause', reason: 'auto-stop' }, now);
  return true;
}

/** Recomputes when a pending upgrade may run: the next window, or never while auto-upgrade is disabled. */
export function maintenanceDueAt(
  ws: Pick<
    Workspace,
    | 'desired_tg_version'
    | 'tg_version'
    | 'auto_upgrade_state'
    | 'mw_day_of_week'
    | 'mw_hour_of_day'
    | 'mw_interval_weeks'
    | 'mw_time_zone'
    | 'last_maintenance'
  >,
  now: number,
): number | null {
  if (!ws.desired_tg_version || ws.desired_tg_version === ws.tg_version || ws.auto_upgrade_state === 'disabled')
    return null;
  return nextWindowStart(
    now,
    {
      dayOfWeek: ws.mw_day_of_week,
      hourOfDay: ws.mw_hour_of_day,
      intervalWeeks: ws.mw_interval_weeks,
      timeZone: ws.mw_time_zone,
    },
    ws.last_maintenance,
  );
}
