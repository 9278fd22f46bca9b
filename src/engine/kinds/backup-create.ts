import { BACKUP_KIND, completeBackupOperation, failBackupOperation } from '../../domain/backup-operations.js';
import { BackupCreateParams } from '../../domain/operation-params.js';
import { findWorkspaceById } from '../../store/repositories/workspaces.js';
import { failed, type BackupObserved } from '../drivers/driver.js';
import { SpecError, workspaceSpec } from '../specs.js';
import { stepContext, type KindDeps, type OperationKind } from './kind.js';

/** backup.create: the driver takes a full backup; the domain records its size and applies retention. */
export const backupCreate = ({
  store,
  drivers,
  catalog,
}: KindDeps): OperationKind<typeof BackupCreateParams, BackupObserved> => ({
  kind: BACKUP_KIND,
  params: BackupCreateParams,
  async run(op, ctx) {
    const ws = await findWorkspaceById(store.db, op.params.workspace_id);
    if (!ws) return failed('the workspace no longer exists');
    try {
      const workspace = workspaceSpec(ws, catalog);
      return await drivers.backup.backup(
        { backupId: op.resource_id, automatic: op.params.automatic, workspace },
        stepContext(op, ctx, ws.x_test_env),
      );
    } catch (err) {
      if (err instanceof SpecError) return failed(err.message);
      throw err;
    }
  },
  complete: (trx, op, observed, now) => completeBackupOperation(trx, catalog, op, now, observed.sizeBytes),
  fail: (trx, op, _params, message, now) => failBackupOperation(trx, op, message, now),
});
