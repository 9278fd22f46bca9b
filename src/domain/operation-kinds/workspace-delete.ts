import { stableStatuses } from '../../schemas/vocabulary.js';
import { deleteWorkspace } from '../../store/repositories/workspaces.js';
import { paramsOf, workspaceOperationKind } from './kind.js';

/**
 * workspace.delete: Deleting → gone. The driver removes the runtime and the data of the
 * workspace's backups, whose rows go with the workspace's.
 */
export const workspaceDelete = workspaceOperationKind({
  op: 'delete',
  params: paramsOf('delete'),
  transition: { from: stableStatuses, via: 'Deleting', condition: 'Delete', verb: 'delete' },
  steps: { delete: 20 },
  complete: (trx, workspaceId) => deleteWorkspace(trx, workspaceId),
});
