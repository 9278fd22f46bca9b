import { BACKUP_DELETE_KIND } from '../../domain/backup-operations.js';
import { BackupDeleteParams } from '../../domain/operation-params.js';
import { stepContext, type KindDeps, type OperationKind } from './kind.js';

/**
 * backup.delete: a backup was deleted (by a request or by retention) and the driver removes
 * its data. The row is gone already, so there is nothing to record either way; a failure
 * stays visible on the operation.
 */
export const backupDelete = ({ drivers }: KindDeps): OperationKind<typeof BackupDeleteParams> => ({
  kind: BACKUP_DELETE_KIND,
  params: BackupDeleteParams,
  run: (op, ctx) =>
    drivers.backup.remove(
      { backupId: op.resource_id, workspaceId: op.params.workspace_id, databaseId: op.params.database_id },
      stepContext(op, ctx),
    ),
  complete: async () => undefined,
  fail: async () => undefined,
});
