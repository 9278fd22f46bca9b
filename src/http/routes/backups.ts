import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

/** Operations 9 and 10, manual backups, restores and the backup schedule (DESIGN §6). */
export function backupRoutes(api: FastifyInstance, services: Services): void {
  const { backups, backupSchedules } = services;
  serve(api, 'listBackups', async ({ principal, params }) =>
    backups.list(principal, params.workgroupID, params.workspaceID),
  );
  serve(api, 'listWorkspaceBackups', async ({ principal, params }) =>
    backups.list(principal, undefined, params.workspaceID),
  );
  serve(api, 'createBackup', async ({ principal, params, body, tx }) =>
    backups.create(principal, params.workgroupID, params.workspaceID, body, tx),
  );
  serve(api, 'deleteBackup', async ({ principal, params, body }) =>
    backups.delete(principal, params.workgroupID, params.workspaceID, body.backup_id),
  );
  serve(api, 'restoreBackup', async ({ principal, params, body, tx }) =>
    backups.restore(principal, params.workgroupID, params.workspaceID, body.backup_id, tx),
  );
  serve(api, 'getRestoreStatus', async ({ principal, params }) =>
    backups.restoreStatus(principal, undefined, params.workspaceID, params.jobID),
  );
  serve(api, 'getBackupJobStatus', async ({ principal, params }) =>
    backups.restoreStatus(principal, params.workgroupID, params.workspaceID, params.job, 'job'),
  );
  serve(api, 'setBackupSchedule', async ({ principal, params, body, tx }) =>
    backupSchedules.set(principal, params.workgroupID, params.workspaceID, body, tx),
  );
  serve(api, 'setBackupScheduleShort', async ({ principal, params, body, tx }) =>
    backupSchedules.set(principal, undefined, params.workspaceID, body, tx),
  );
  serve(api, 'getBackupSchedule', async ({ principal, params }) =>
    backupSchedules.get(principal, undefined, params.workspaceID),
  );
  serve(api, 'getWorkspaceBackupSchedule', async ({ principal, params }) =>
    backupSchedules.get(principal, params.workgroupID, params.workspaceID),
  );
}
