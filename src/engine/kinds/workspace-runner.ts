import {
  workspaceKindName,
  workspaceOperationKinds,
  type AnyWorkspaceKind,
  type WorkspaceAction,
  type WorkspaceOpParams,
} from '../../domain/operation-kinds/index.js';
import { completeWorkspaceOperation, failWorkspaceOperation } from '../../domain/workspace-operations.js';
import { findBackupById } from '../../store/repositories/backups.js';
import { findDatabase } from '../../store/repositories/databases.js';
import { findWorkspaceById, type Workspace } from '../../store/repositories/workspaces.js';
import type { Executor } from '../../store/store.js';
import { done, failed, type WorkspaceObserved, type WorkspaceSpec } from '../drivers/driver.js';
import { SpecError, observedChanges, workspaceSpec, type SpecSources } from '../specs.js';
import { stepContext, type KindDeps, type OperationKind } from './kind.js';

/**
 * Runs a workspace operation kind as its declaration says (src/domain/operation-kinds/):
 * each step builds the spec from the workspace as it is now (its desired state and what was
 * observed, nothing of the operation's parameters) and asks the workspace driver for the
 * kind's actions; completion and failure are the domain's. Once the workspace is gone there
 * is nothing to do.
 */
export function workspaceRunner(
  { store, drivers, catalog }: KindDeps,
  kind: AnyWorkspaceKind,
): OperationKind<AnyWorkspaceKind['params'], WorkspaceObserved> {
  return {
    kind: workspaceKindName(kind.op),
    params: kind.params,
    async run(op, ctx) {
      const ws = await findWorkspaceById(store.db, op.resource_id);
      if (!ws) return done({});
      const sources = await sourcesOf(store.db, ws);
      if (typeof sources === 'string') return failed(sources);
      let spec: WorkspaceSpec;
      try {
        spec = workspaceSpec(ws, catalog, sources);
      } catch (err) {
        if (err instanceof SpecError) return failed(err.message);
        throw err;
      }
      const actions: readonly WorkspaceAction[] = kind.actions ? kind.actions(op.params) : Object.keys(kind.steps);
      return drivers.workspace.apply(actions, spec, stepContext(op, ctx, ws.x_test_env));
    },
    complete: (trx, op, observed, now) =>
      completeWorkspaceOperation(trx, kind, op, observedChanges(observed, now), now),
    fail: (trx, op, params, message, now) =>
      failWorkspaceOperation(trx, kind, op, params as WorkspaceOpParams | undefined, message, now),
  };
}

/** A runner of every workspace operation kind. */
export const workspaceRunners = (deps: KindDeps) => workspaceOperationKinds.map((kind) => workspaceRunner(deps, kind));

/**
 * Where the workspace's data comes from, as the spec names it, or why it cannot: a read-only
 * workspace's snapshots from its database's read-write workspace; a restore's from the backup
 * it asks for, which must still be there.
 */
async function sourcesOf(db: Executor, ws: Workspace): Promise<SpecSources | string> {
  let sources: SpecSources = {};
  if (!ws.is_rw) {
    const database = await findDatabase(db, ws.org_id, ws.database_id);
    if (database?.rw_workspace_id) sources = { sourceWorkspaceId: database.rw_workspace_id };
  }
  if (ws.restore_backup_id !== null) {
    const backup = await findBackupById(db, ws.restore_backup_id);
    if (!backup || backup.database_id !== ws.database_id) return `backup ${ws.restore_backup_id} no longer exists`;
    sources = {
      ...sources,
      restoreFrom: { backupId: backup.id, takenAt: backup.created_at, sizeBytes: backup.size_bytes },
    };
  }
  return sources;
}
