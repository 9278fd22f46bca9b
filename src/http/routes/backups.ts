import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import {
  BackupRecord,
  BackupScheduleBody,
  BackupScheduleRecord,
  CreateBackupBody,
  DeleteBackupBody,
  RestoreBackupBody,
  RestoreJob,
  RestoreStatusParams,
  RestoreStatusRecord,
} from '../../schemas/backup.js';
import { WorkspaceIdParams, WorkspaceParams } from '../../schemas/workspace.js';
import { ok } from '../envelope.js';
import { replies } from '../responses.js';

const tags = ['backups'];
const path = '/workgroups/:workgroupID/workspaces/:workspaceID/backups';
const shortPath = '/workspaces/:workspaceID/backups';

/** Operations 9 and 10, manual backups, restores and the backup schedule (DESIGN §6). */
export function backupRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { backups, backupSchedules } = services;

  api.get(path, {
    schema: { operationId: 'listBackups', summary: 'List the backups of a workspace', tags, params: WorkspaceParams, response: replies(Type.Array(BackupRecord)) },
    handler: async (request) => ok(request, await backups.list(request.principal, request.params.workgroupID, request.params.workspaceID)),
  });

  api.get(shortPath, {
    schema: { operationId: 'listWorkspaceBackups', summary: 'List the backups of a workspace (by workspace id alone)', tags, params: WorkspaceIdParams, response: replies(Type.Array(BackupRecord)) },
    handler: async (request) => ok(request, await backups.list(request.principal, undefined, request.params.workspaceID)),
  });

  api.post(path, {
    schema: { operationId: 'createBackup', summary: 'Take a manual backup of an Active read-write workspace', tags, params: WorkspaceParams, body: CreateBackupBody, response: replies(BackupRecord) },
    handler: async (request) =>
      ok(request, await backups.create(request.principal, request.params.workgroupID, request.params.workspaceID, request.body), 'Backup is being taken.'),
  });

  api.delete(path, {
    schema: { operationId: 'deleteBackup', summary: 'Delete a backup (body: {backup_id}); Result is its id', tags, params: WorkspaceParams, body: DeleteBackupBody, response: replies(Type.String()) },
    handler: async (request) =>
      ok(request, await backups.delete(request.principal, request.params.workgroupID, request.params.workspaceID, request.body.backup_id), 'Backup deleted.'),
  });

  api.post(`${path}/restore`, {
    schema: { operationId: 'restoreBackup', summary: 'Restore the workspace from a Succeeded backup; Result carries the job id', tags, params: WorkspaceParams, body: RestoreBackupBody, response: replies(RestoreJob) },
    handler: async (request) =>
      ok(request, await backups.restore(request.principal, request.params.workgroupID, request.params.workspaceID, request.body.backup_id), 'Workspace is being restored.'),
  });

  api.get(`${shortPath}/restore/:jobID/status`, {
    schema: { operationId: 'getRestoreStatus', summary: 'Status of a restore job', tags, params: RestoreStatusParams, response: replies(RestoreStatusRecord) },
    handler: async (request) => ok(request, await backups.restoreStatus(request.principal, request.params.workspaceID, request.params.jobID)),
  });

  api.post(`${path}/schedule`, {
    schema: {
      operationId: 'setBackupSchedule', summary: "Create or update the workspace's backup schedule (cron in UTC)", tags,
      params: WorkspaceParams, body: BackupScheduleBody, response: replies(BackupScheduleRecord),
    },
    handler: async (request) =>
      ok(request, await backupSchedules.set(request.principal, request.params.workgroupID, request.params.workspaceID, request.body), 'Backup schedule saved.'),
  });

  api.get(`${shortPath}/schedule`, {
    schema: { operationId: 'getBackupSchedule', summary: "The workspace's backup schedule", tags, params: WorkspaceIdParams, response: replies(BackupScheduleRecord) },
    handler: async (request) => ok(request, await backupSchedules.get(request.principal, request.params.workspaceID)),
  });
}
