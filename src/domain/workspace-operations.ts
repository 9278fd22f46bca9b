import { newId } from './ids.js';
import type { DialectName, Executor } from '../store/store.js';
import { insertOperation, type Operation } from '../store/repositories/operations.js';
import { findBackupById } from '../store/repositories/backups.js';
import * as wsRepo from '../store/repositories/workspaces.js';
import type { Workspace, WorkspaceChanges } from '../store/repositories/workspaces.js';
import { conflict } from './errors.js';
import { nextWindowStart } from './maintenance.js';
import { NORMAL_CONDITION, finalStatus, transitions, type WorkspaceOperation } from './workspace-lifecycle.js';

export const MAX_ATTEMPTS = 3;

/** Parameters of a workspace operation, stored with it. */
export interface WorkspaceOpParams {
  /** The lifecycle operation (create, pause, …). */
  op: WorkspaceOperation;
  /** For update: what it changes, e.g. { tg_version } for an upgrade. */
  tg_version?: string;
  /** For update: what the simulated driver calls the action (resize, ha, upgrade). */
  actions?: string[];
  /** Set when a maintenance window started the upgrade. */
  maintenance?: boolean;
  /** For restore: the backup the workspace's data comes back from. */
  backup_id?: string;
  [key: string]: unknown;
}

export const workspaceKind = (op: WorkspaceOperation) => `workspace.${op}`;

const concurrentChange = () => conflict('version_number', 'the workspace was changed by another request; read it again and retry');

/**
 * Moves the workspace into the operation's transitional status and enqueues the operation,
 * in the caller's transaction, so either both happen or neither. The status check is a
 * compare-and-set on version_number: a concurrent change makes this fail with 409.
 */
export async function beginWorkspaceOperation(
  trx: Executor,
  ws: Workspace,
  params: WorkspaceOpParams,
  now: number,
  changes: WorkspaceChanges = {},
): Promise<{ operationId: string; workspace: Workspace }> {
  const t = transitions[params.op];
  const next: WorkspaceChanges = { ...changes, status: t.via, condition_type: t.condition, err_message: null };
  if (!(await wsRepo.updateWorkspace(trx, ws, next, now))) throw concurrentChange();
  const operationId = newId();
  await insertOperation(trx, {
    id: operationId,
    org_id: ws.org_id,
    resource_type: 'workspace',
    resource_id: ws.id,
    kind: workspaceKind(params.op),
    params,
    max_attempts: MAX_ATTEMPTS,
    run_at: now,
    created_at: now,
  });
  return { operationId, workspace: { ...ws, ...next, version_number: ws.version_number + 1, updated_at: now } };
}

/** Applies a finished operation's effect to its workspace (inside the completing transaction). */
export async function completeWorkspaceOperation(trx: Executor, dialect: DialectName, op: Operation, now: number, result: { topologyBytes?: number } = {}): Promise<void> {
  const params = op.params as WorkspaceOpParams;
  if (params.op === 'delete') {
    await wsRepo.deleteWorkspace(trx, op.resource_id);
    return;
  }
  await applyOutcome(trx, dialect, op.resource_id, now, async (ws) => {
    const changes: WorkspaceChanges = {
      status: finalStatus(params.op, ws.enable_auto_start),
      condition_type: NORMAL_CONDITION,
      err_message: null,
      failed_operation_id: null,
    };
    if (params.op === 'create' || params.op === 'resume') changes.last_activity_at = now;
    if (params.op === 'create' && result.topologyBytes !== undefined) changes.graph_topology_size_bytes = result.topologyBytes;
    if (params.op === 'update' && params.tg_version) {
      changes.tg_version = params.tg_version;
      if (ws.desired_tg_version === params.tg_version) {
        changes.desired_tg_version = null;
        changes.maintenance_due_at = null;
      }
      if (params.maintenance) changes.last_maintenance = now;
    }
    if (params.op === 'restore' && params.backup_id) {
      // The data is the backup's again: its size, as of the instant it was taken.
      const backup = await findBackupById(trx, params.backup_id);
      if (backup) {
        changes.graph_topology_size_bytes = backup.size_bytes;
        changes.snapshot_time = backup.created_at;
      }
    }
    if (params.op === 'refresh') {
      changes.refresh_status = 'Succeeded';
      changes.refresh_message = 'refreshed from the read-write workspace of the database';
      changes.snapshot_time = now;
      const rw = (await wsRepo.listWorkspacesOfDatabase(trx, ws.database_id)).find((w) => w.is_rw);
      if (rw) {
        changes.graph_topology_size_bytes = rw.graph_topology_size_bytes;
        changes.vertex_count = rw.vertex_count;
        changes.edge_count = rw.edge_count;
      }
    }
    return changes;
  });
}

/** Marks the workspace Failed with the driver's message, remembering the operation for a retry. */
export async function failWorkspaceOperation(trx: Executor, dialect: DialectName, op: Operation, message: string, now: number): Promise<void> {
  await applyOutcome(trx, dialect, op.resource_id, now, () => {
    const changes: WorkspaceChanges = { status: 'Failed', condition_type: NORMAL_CONDITION, err_message: message, failed_operation_id: op.id };
    if ((op.params as WorkspaceOpParams).op === 'refresh') {
      changes.refresh_status = 'Failed';
      changes.refresh_message = message;
    }
    return changes;
  });
}

/**
 * Writes an operation's outcome on the workspace as it is now. While an operation runs,
 * requests may still change metadata (a rename, say); the outcome must not be lost to that,
 * or the workspace would stay in its transitional status for good. The row is locked while
 * the outcome is computed and written, so no request can change it in between. Nothing to
 * do once the workspace is gone.
 */
async function applyOutcome(trx: Executor, dialect: DialectName, id: string, now: number, changesFor: (ws: Workspace) => WorkspaceChanges | Promise<WorkspaceChanges>): Promise<void> {
  const ws = await wsRepo.lockWorkspaceById(trx, dialect, id);
  if (!ws) return;
  if (!(await wsRepo.updateWorkspace(trx, ws, await changesFor(ws), now))) throw new Error(`workspace ${id} changed under its lock`);
}

/** True when an Active workspace has been without activity for its auto-stop period at `now`. */
function isIdle(ws: Pick<Workspace, 'status' | 'auto_stop_minutes' | 'last_activity_at'>, now: number): boolean {
  return ws.status === 'Active' && ws.auto_stop_minutes > 0 && ws.last_activity_at + ws.auto_stop_minutes * 60_000 <= now;
}

/**
 * Starts the auto-stop pause of a workspace found idle, if it still is. Activity through the
 * gateway does not change the version (it would turn every data-plane request into a
 * conflict for editors), so the candidate is read again under its row lock: a request that
 * reached the workspace after it was found idle keeps it running. True when it was paused.
 */
export async function autoStopIfIdle(trx: Executor, dialect: DialectName, id: string, now: number): Promise<boolean> {
  const ws = await wsRepo.lockWorkspaceById(trx, dialect, id);
  if (!ws || !isIdle(ws, now)) return false;
  await beginWorkspaceOperation(trx, ws, { op: 'pause', reason: 'auto-stop' }, now);
  return true;
}

/** Recomputes when a pending upgrade may run: the next window, or never while auto-upgrade is disabled. */
export function maintenanceDueAt(ws: Pick<Workspace, 'desired_tg_version' | 'tg_version' | 'auto_upgrade_state' | 'mw_day_of_week' | 'mw_hour_of_day' | 'mw_interval_weeks' | 'mw_time_zone' | 'last_maintenance'>, now: number): number | null {
  if (!ws.desired_tg_version || ws.desired_tg_version === ws.tg_version || ws.auto_upgrade_state === 'disabled') return null;
  return nextWindowStart(now, { dayOfWeek: ws.mw_day_of_week, hourOfDay: ws.mw_hour_of_day, intervalWeeks: ws.mw_interval_weeks, timeZone: ws.mw_time_zone }, ws.last_maintenance);
}
