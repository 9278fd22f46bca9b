import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, StringEnum, Timestamp } from './helpers.js';
import { Component } from './component.js';

const Opt = Type.Optional;

export const backupStatuses = ['InProgress', 'Succeeded', 'Failed'] as const;
export const backupTypes = ['full'] as const;
export const firingOutcomes = ['started', 'skipped'] as const;

/** Backup record (contract: operations 9 and 10). */
export const BackupRecord = Component(
  'BackupRecord',
  Type.Object(
    {
      id: Type.String(),
      is_automatic: Type.Boolean({ description: 'true when taken by the backup schedule' }),
      size_bytes: Type.String({ description: 'bytes, as a decimal string' }),
      status: StringEnum(backupStatuses, { description: 'InProgress → Succeeded, or Failed' }),
      tag: Opt(Type.String()),
      time: Timestamp,
      type: StringEnum(backupTypes, { description: 'scope of the data captured' }),
      version: Type.String({ description: "the workspace's tg_version when the backup was taken" }),
    },
    { description: "A backup of a read-write workspace's database." },
  ),
);
export type BackupRecord = Static<typeof BackupRecord>;

export const CreateBackupBody = Component(
  'CreateBackupBody',
  Body({ tag: Opt(Type.String({ minLength: 1, maxLength: 128 })) }),
);
export type CreateBackupBody = Static<typeof CreateBackupBody>;

export const DeleteBackupBody = Component('DeleteBackupBody', Body({ backup_id: Id }));
export type DeleteBackupBody = Static<typeof DeleteBackupBody>;

export const RestoreBackupBody = Component('RestoreBackupBody', Body({ backup_id: Id }));
export type RestoreBackupBody = Static<typeof RestoreBackupBody>;

/** The real service's BackupRestoreStatus ({created_at, name, output, status}) and the service's own fields. */
export const RestoreStatusRecord = Component(
  'RestoreStatusRecord',
  Type.Object(
    {
      job_id: Type.String({ description: 'the restore job: an operation id (GET /operations/{id})' }),
      name: Type.String({ description: 'the backup restored from (its id)' }),
      backup_id: Type.String(),
      status: StringEnum(backupStatuses, { description: 'InProgress → Succeeded, or Failed' }),
      output: Type.String({ description: 'what the job reports: progress, the result, or why it failed' }),
      error: Opt(Type.String({ description: 'why the restore failed' })),
      created_at: Timestamp,
      started_at: Timestamp,
      finished_at: Opt(Timestamp),
    },
    { description: 'The status of a restore job.' },
  ),
);
export type RestoreStatusRecord = Static<typeof RestoreStatusRecord>;

/** POST …/backups/schedule: creates or updates the workspace's backup schedule (omitted fields keep their values). */
export const BackupScheduleBody = Component(
  'BackupScheduleBody',
  Body({
    schedule: Opt(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: '5-field cron expression, in UTC; required when the workspace has no schedule yet',
      }),
    ),
    max_backup_files: Opt(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description: "automatic backups kept; at most the tier's automatic backups",
      }),
    ),
    max_reserved_days: Opt(
      Type.Integer({ minimum: 1, maximum: 3650, description: 'automatic backups this many days old are deleted' }),
    ),
    max_retry: Opt(Type.Integer({ minimum: 0, maximum: 10, description: 'retries of a failed automatic backup' })),
    pause: Opt(Type.Boolean({ description: 'true stops firings; retention still applies' })),
  }),
);
export type BackupScheduleBody = Static<typeof BackupScheduleBody>;

export const BackupScheduleRecord = Component(
  'BackupScheduleRecord',
  Type.Object(
    {
      workspace_id: Type.String(),
      schedule: Type.String({ description: '5-field cron expression' }),
      timezone: StringEnum(['UTC'] as const, { description: 'always UTC' }),
      max_backup_files: Type.Integer(),
      max_reserved_days: Type.Integer(),
      max_retry: Type.Integer(),
      pause: Type.Boolean(),
      next_run_at: Opt(Timestamp),
      last_run_at: Opt(Timestamp),
      last_run_outcome: Opt(StringEnum(firingOutcomes)),
      last_run_reason: Opt(Type.String()),
      last_backup_id: Opt(Type.String()),
      created_at: Timestamp,
      updated_at: Timestamp,
      version_number: Type.Integer(),
    },
    { description: "A workspace's backup schedule and its last firing." },
  ),
);
export type BackupScheduleRecord = Static<typeof BackupScheduleRecord>;

export const RestoreStatusParams = Type.Object({ workspaceID: Id, jobID: Id });
/** The real service's long form of the restore status: `…/workspaces/{workspaceID}/backups/{job}/status`. */
export const BackupJobParams = Type.Object({ workgroupID: Id, workspaceID: Id, job: Id });
