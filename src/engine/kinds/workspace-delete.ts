import { deleteWorkspace } from '../../store/repositories/workspaces.js';
import type { KindDeps } from './kind.js';
import { workspaceKind } from './workspace-kind.js';

/**
 * workspace.delete: Deleting → gone. The driver removes the runtime and the data of the
 * workspace's backups, whose rows go with the workspace's.
 */
export const workspaceDelete = (deps: KindDeps) =>
  workspaceKind(deps, {
    op: 'delete',
    actions: () => ['delete'],
    complete: (trx, op) => deleteWorkspace(trx, op.resource_id),
  });
