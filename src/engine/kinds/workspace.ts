import { findWorkspaceById } from '../../store/repositories/workspaces.js';
import { completeWorkspaceOperation, failWorkspaceOperation, workspaceKind } from '../../domain/workspace-operations.js';
import type { WorkspaceOperation } from '../../domain/workspace-lifecycle.js';
import type { HandlerDeps, OperationHandler } from './handler.js';

const ops: WorkspaceOperation[] = ['create', 'pause', 'resume', 'update', 'restore', 'refresh', 'delete'];

/** workspace.create, workspace.pause, …: the driver does the work, the domain applies the outcome. */
export function workspaceHandlers({ store, driver }: HandlerDeps): OperationHandler[] {
  return ops.map((op) => ({
    kind: workspaceKind(op),
    run: async (operation, now) => driver.runWorkspaceStep(operation, await findWorkspaceById(store.db, operation.resource_id), now),
    complete: (trx, operation, step, now) => completeWorkspaceOperation(trx, store.dialect, operation, now, step.result),
    fail: (trx, operation, message, now) => failWorkspaceOperation(trx, store.dialect, operation, message, now),
  }));
}
