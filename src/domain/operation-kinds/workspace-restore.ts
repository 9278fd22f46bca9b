import { Type } from '@sinclair/typebox';
import { paramsOf, workspaceOperationKind } from './kind.js';

/**
 * workspace.restore: Restoring → Active with the backup's data. The backup becomes the
 * workspace's `restore_backup_id` while it runs; the driver reports the restored graph (its
 * size, and the backup's time as the snapshot time).
 */
export const workspaceRestore = workspaceOperationKind({
  op: 'restore',
  params: paramsOf('restore', { backup_id: Type.String({ minLength: 1, maxLength: 64 }) }),
  transition: { from: ['Active'], via: 'Restoring', condition: 'Restore', verb: 'restore' },
  steps: { restore: 60 },
  requests: (params) => ({ restore_backup_id: params.backup_id }),
});
