import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import {
  BackupJobParams,
  BackupRecord,
  BackupScheduleBody,
  BackupScheduleRecord,
  CreateBackupBody,
  DeleteBackupBody,
  RestoreBackupBody,
  RestoreStatusParams,
  RestoreStatusRecord,
} from '../backup.js';
import { WorkspaceIdParams, WorkspaceParams } from '../workspace.js';
import { endpoint } from './spec.js';

const tags = ['Backups'] as const;
const path = `${API_PREFIX}/workgroups/{workgroupID}/workspaces/{workspaceID}/backups` as const;
const short = `${API_PREFIX}/workspaces/{workspaceID}/backups` as const;

const scheduleText =
  "Creates the workspace's backup schedule (`schedule` required) or updates it (omitted fields keep their " +
  'values). `schedule` is a 5-field cron expression in UTC; `max_backup_files` is at most the tier allows ' +
  '(403 Quota-Exceed).';

export const backupEndpoints = {
  listBackups: endpoint({
    method: 'GET',
    path,
    summary: 'List the backups of a workspace',
    description: "Operation 9. The backups of the workspace's database, manual and automatic.",
    tags,
    params: WorkspaceParams,
    result: Type.Array(Ref(BackupRecord)),
    errors: [404],
    client: 'backups.list',
  }),
  listWorkspaceBackups: endpoint({
    method: 'GET',
    path: short,
    summary: 'List the backups of a workspace (by workspace id)',
    description: 'The same as operation 9, naming the workspace by its id alone.',
    tags,
    params: WorkspaceIdParams,
    result: Type.Array(Ref(BackupRecord)),
    errors: [404],
    client: 'backups.listByWorkspace',
  }),
  createBackup: endpoint({
    method: 'POST',
    path,
    summary: 'Take a manual backup',
    description:
      'Backs up an Active read-write workspace (a read-only one: 400; another status: 409). Counts against ' +
      "the tier's manual backups (403 Quota-Exceed).",
    tags,
    params: WorkspaceParams,
    body: Ref(CreateBackupBody),
    result: Ref(BackupRecord),
    errors: [403, 404, 409],
    follow: 'backup',
    message: 'Backup is being taken.',
    client: 'backups.create',
  }),
  deleteBackup: endpoint({
    method: 'DELETE',
    path,
    summary: 'Delete a backup',
    description:
      'Operation 10. DELETE with a JSON body `{backup_id}`; the Result is the deleted id. Refused (409) while ' +
      'the backup is InProgress or a restore from it runs.',
    tags,
    params: WorkspaceParams,
    body: Ref(DeleteBackupBody),
    result: Type.String({ description: 'the deleted backup id' }),
    errors: [403, 404, 409],
    message: 'Backup deleted.',
    client: 'backups.delete',
  }),
  restoreBackup: endpoint({
    method: 'POST',
    path: `${path}/restore`,
    summary: 'Restore a backup',
    description:
      'Restores an Active read-write workspace from a Succeeded backup of its database: the workspace is ' +
      'Restoring, then Active. The Result is the restore job id (a string, as the real service documents ' +
      'it), readable at GET /workspaces/{workspaceID}/backups/restore/{jobID}/status.',
    tags,
    params: WorkspaceParams,
    body: Ref(RestoreBackupBody),
    result: Type.String({ description: 'the restore job id (an operation id)' }),
    errors: [403, 404, 409],
    follow: 'operation',
    message: 'Workspace is being restored.',
    client: 'backups.restore',
  }),
  getRestoreStatus: endpoint({
    method: 'GET',
    path: `${short}/restore/{jobID}/status`,
    summary: 'Status of a restore job (by workspace id)',
    description: 'InProgress, then Succeeded or Failed (with `error`).',
    tags,
    params: RestoreStatusParams,
    result: Ref(RestoreStatusRecord),
    errors: [404],
    client: 'backups.restoreStatus',
  }),
  getBackupJobStatus: endpoint({
    method: 'GET',
    path: `${path}/{job}/status`,
    summary: 'Status of a restore job',
    description:
      'The same as GET /workspaces/{workspaceID}/backups/restore/{jobID}/status, at the path the real ' +
      'service documents: `job` is the restore job id the restore answered.',
    tags,
    params: BackupJobParams,
    result: Ref(RestoreStatusRecord),
    errors: [404],
    client: 'backups.status',
  }),
  setBackupSchedule: endpoint({
    method: 'POST',
    path: `${path}/schedule`,
    summary: 'Set the backup schedule',
    description: scheduleText,
    tags,
    params: WorkspaceParams,
    body: Ref(BackupScheduleBody),
    result: Ref(BackupScheduleRecord),
    errors: [403, 404, 409],
    message: 'Backup schedule saved.',
    client: 'backups.setSchedule',
  }),
  setBackupScheduleShort: endpoint({
    method: 'POST',
    path: `${short}/schedule`,
    summary: 'Set the backup schedule (by workspace id)',
    description: `${scheduleText} The same as under /workgroups/{workgroupID}, naming the workspace by its id alone.`,
    tags,
    params: WorkspaceIdParams,
    body: Ref(BackupScheduleBody),
    result: Ref(BackupScheduleRecord),
    errors: [403, 404, 409],
    message: 'Backup schedule saved.',
    client: 'backups.setScheduleShort',
  }),
  getBackupSchedule: endpoint({
    method: 'GET',
    path: `${short}/schedule`,
    summary: 'Get the backup schedule (by workspace id)',
    description: "The workspace's backup schedule, its next run and its last firing.",
    tags,
    params: WorkspaceIdParams,
    result: Ref(BackupScheduleRecord),
    errors: [404],
    client: 'backups.getSchedule',
  }),
  getWorkspaceBackupSchedule: endpoint({
    method: 'GET',
    path: `${path}/schedule`,
    summary: 'Get the backup schedule',
    description: "The workspace's backup schedule, its next run and its last firing; 404 while it has none.",
    tags,
    params: WorkspaceParams,
    result: Ref(BackupScheduleRecord),
    errors: [404],
    client: 'backups.schedule',
  }),
} as const;
