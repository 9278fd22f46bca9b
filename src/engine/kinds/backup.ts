import { findWorkspaceById } from '../../store/repositories/workspaces.js';
import { BACKUP_KIND, completeBackupOperation, failBackupOperation, type BackupOpParams } from '../../domain/backup-operations.js';
import type { HandlerDeps, OperationHandler } from './handler.js';

/** backup.create: the driver takes the backup; the domain records it and applies retention. */
export function backupHandlers({ store, driver, catalog }: HandlerDeps): OperationHandler[] {
  return [
    {
      kind: BACKUP_KIND,
      run: async (operation, now) => driver.runBackupStep(operation, await findWorkspaceById(store.db, (operation.params as BackupOpParams).workspace_id), now),
      complete: (trx, operation, step, now) => completeBackupOperation(trx, catalog, operation, now, step.result?.backupBytes ?? 0),
      fail: (trx, operation, message, now) => failBackupOperation(trx, operation, message, now),
    },
  ];
}
