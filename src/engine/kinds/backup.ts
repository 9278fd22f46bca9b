import { findBackupScheduleOfWorkspace, tierOfOrganisation } from '../../store/repositories/backup-schedules.js';
import { findWorkspaceById } from '../../store/repositories/workspaces.js';
import { BACKUP_KIND, completeBackupOperation, failBackupOperation, type BackupOpParams } from '../../domain/backup-operations.js';
import type { Tier } from '../../domain/catalog.js';
import type { HandlerDeps, OperationHandler } from './handler.js';

/** backup.create: the driver takes the backup; the domain records it and applies retention. */
export function backupHandlers({ store, driver, catalog }: HandlerDeps): OperationHandler[] {
  return [
    {
      kind: BACKUP_KIND,
      run: async (operation, now) => driver.runBackupStep(operation, await findWorkspaceById(store.db, (operation.params as BackupOpParams).workspace_id), now),
      complete: async (trx, operation, step, now) => {
        const workspaceId = (operation.params as BackupOpParams).workspace_id;
        const schedule = await findBackupScheduleOfWorkspace(trx, workspaceId);
        const tier = await tierOfOrganisation(trx, operation.org_id);
        const limit = catalog.tiers[tier as Tier]?.auto_backups ?? 0;
        await completeBackupOperation(trx, operation, now, step.result?.backupBytes ?? 0, schedule, limit);
      },
      fail: (trx, operation, message, now) => failBackupOperation(trx, operation, message, now),
    },
  ];
}
