import { findBackupById } from '../../store/repositories/backups.js';
import type { KindDeps } from './kind.js';
import { workspaceKind } from './workspace-kind.js';

/**
 * workspace.restore: Restoring → Active with the backup's data; the driver reports the
 * restored graph (its size, and the backup's time as the snapshot time).
 */
export const workspaceRestore = (deps: KindDeps) =>
  workspaceKind(deps, {
    op: 'restore',
    actions: () => ['restore'],
    spec: async (db, ws, params) => {
      const backup = await findBackupById(db, params.backup_id);
      if (!backup || backup.database_id !== ws.database_id) return `backup ${params.backup_id} no longer exists`;
      return { restoreFrom: { backupId: backup.id, takenAt: backup.created_at, sizeBytes: backup.size_bytes } };
    },
  });
