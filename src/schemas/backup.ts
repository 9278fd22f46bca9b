import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, StringEnum, Timestamp } from './helpers.js';

const Opt = Type.Optional;

export const backupStatuses = ['InProgress', 'Succeeded', 'Failed'] as const;

/** Backup record (contract: operations 9 and 10). */
export const BackupRecord = Type.Object({
  id: Type.String(),
  is_automatic: Type.Boolean({ description: 'true when taken by the backup schedule' }),
  size_bytes: Type.String({ description: 'bytes, as a decimal string' }),
  status: StringEnum(backupStatuses),
  tag: Opt(Type.String()),
  time: Timestamp,
  type: Type.String({ description: 'scope of the data captured: full' }),
  version: Type.String({ description: "the workspace's tg_version when the backup was taken" }),
});
export type BackupRecord = Static<typeof BackupRecord>;

export const CreateBackupBody = Body({ tag: Opt(Type.String({ minLength: 1, maxLength: 128 })) });
export type CreateBackupBody = Static<typeof CreateBackupBody>;

export const DeleteBackupBody = Body({ backup_id: Id });
export type DeleteBackupBody = Static<typeof DeleteBackupBody>;

export const RestoreBackupBody = Body({ backup_id: Id });
export type RestoreBackupBody = Static<typeof RestoreBackupBody>;

export const RestoreJob = Type.Object({ job_id: Type.String() });
export type RestoreJob = Static<typeof RestoreJob>;

export const RestoreStatusRecord = Type.Object({
  job_id: Type.String(),
  backup_id: Type.String(),
  status: StringEnum(backupStatuses),
  error: Opt(Type.String()),
  started_at: Timestamp,
  finished_at: Opt(Timestamp),
});
export type RestoreStatusRecord = Static<typeof RestoreStatusRecord>;

/** POST …/backups/schedule: creates or updates the workspace's backup schedule (omitted fields keep their values). */
export const BackupScheduleBody = Body({
  schedule: Opt(Type.String({ minLength: 1, maxLength: 128, description: '5-field cron expression, in UTC' })),
  max_backup_files: Opt(Type.Integer({ minimum: 1, maximum: 1000, description: "automatic backups kept; at most the tier's automatic backups" })),
  max_reserved_days: Opt(Type.Integer({ minimum: 1, maximum: 3650, description: 'automatic backups this many days old are deleted' })),
  max_retry: Opt(Type.Integer({ minimum: 0, maximum: 10, description: 'retries of a failed automatic backup' })),
  pause: Opt(Type.Boolean({ description: 'true stops firings; retention still applies' })),
});
export type BackupScheduleBody = Static<typeof BackupScheduleBody>;

export const BackupScheduleRecord = Type.Object({
  workspace_id: Type.String(),
  schedule: Type.String(),
  timezone: Type.String({ description: 'always UTC' }),
  max_backup_files: Type.Integer(),
  max_reserved_days: Type.Integer(),
  max_retry: Type.Integer(),
  pause: Type.Boolean(),
  next_run_at: Opt(Timestamp),
  last_run_at: Opt(Timestamp),
  last_run_outcome: Opt(Type.String({ description: 'started or skipped' })),
  last_run_reason: Opt(Type.String()),
  last_backup_id: Opt(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  version_number: Type.Integer(),
});
export type BackupScheduleRecord = Static<typeof BackupScheduleRecord>;

export const RestoreStatusParams = Type.Object({ workspaceID: Id, jobID: Id });
