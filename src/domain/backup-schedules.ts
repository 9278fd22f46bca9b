import { newId } from './ids.js';
import type { Store, Tx } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as repo from '../store/repositories/backup-schedules.js';
import type { BackupSchedule, BackupScheduleChanges } from '../store/repositories/backup-schedules.js';
import type { Clock } from './clock.js';
import type { BackupScheduleBody, BackupScheduleRecord } from '../schemas/backup.js';
import { cronProblem, nextOccurrence } from './backup-operations.js';
import { requireReadWrite } from './backups.js';
import type { Catalog } from './catalog.js';
import { AppError, Problems, conflict, notFound } from './errors.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { iso, isoOrUndefined } from './time.js';
import type { WorkspaceService } from './workspaces.js';

export const DEFAULT_RESERVED_DAYS = 7;
const DEFAULT_RETRIES = 3;

export function backupScheduleRecord(s: BackupSchedule): BackupScheduleRecord {
  return {
    workspace_id: s.workspace_id,
    schedule: s.schedule,
    timezone: 'UTC',
    max_backup_files: s.max_backup_files,
    max_reserved_days: s.max_reserved_days,
    max_retry: s.max_retry,
    pause: s.pause,
    ...(s.next_run_at !== null ? { next_run_at: iso(s.next_run_at) } : {}),
    ...(s.last_run_at !== null ? { last_run_at: isoOrUndefined(s.last_run_at)! } : {}),
    ...(s.last_run_outcome ? { last_run_outcome: s.last_run_outcome as 'started' | 'skipped' } : {}),
    ...(s.last_run_reason ? { last_run_reason: s.last_run_reason } : {}),
    ...(s.last_backup_id ? { last_backup_id: s.last_backup_id } : {}),
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
    version_number: s.version_number,
  };
}

const changedMeanwhile = () =>
  conflict('version_number', 'the backup schedule was changed by another request; read it again and retry');

/** The one backup schedule of a RW workspace: cron in UTC, retention, retries, pause. */
export class BackupScheduleService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workspaces: WorkspaceService,
  ) {}

  /** The workspace may be named by its id alone (no workgroup). */
  async get(p: Principal, workgroupId: string | undefined, workspaceId: string): Promise<BackupScheduleRecord> {
    const ws = await this.workspaces.find(p, workgroupId, workspaceId);
    const schedule = await repo.findBackupScheduleOfWorkspace(this.store.db, ws.id);
    if (!schedule) throw notFound('workspaceID', `workspace ${ws.id} has no backup schedule`);
    return backupScheduleRecord(schedule);
  }

  /** Creates the schedule, or updates it (omitted fields keep their values). */
  /** Creates or updates the schedule; the workspace may be named by its id alone (no workgroup). */
  async set(
    p: Principal,
    workgroupId: string | undefined,
    workspaceId: string,
    body: BackupScheduleBody,
    tx?: Tx,
  ): Promise<BackupScheduleRecord> {
    const ws = await this.workspaces.find(p, workgroupId, workspaceId, tx);
    authorize(p, 'workspace:edit', { workgroupId: ws.workgroup_id, workspaceId: ws.id });
    requireReadWrite(ws);
    const problems = new Problems();
    const cron = body.schedule === undefined ? undefined : cronProblem(body.schedule);
    if (cron) problems.add('schedule', cron);
    else if (body.schedule !== undefined && nextOccurrence(body.schedule, this.clock.now()) === null)
      problems.add('schedule', 'never occurs');
    problems.throwIfAny();
    const limit = this.catalog.tiers[p.tier].auto_backups;
    if (limit === 0)
      throw new AppError('quota', {
        field: 'max_backup_files',
        reason: `the ${p.tier} tier allows no automatic backups`,
      });
    if (body.max_backup_files !== undefined && body.max_backup_files > limit) {
      throw new AppError('quota', {
        field: 'max_backup_files',
        reason: `the ${p.tier} tier allows at most ${limit} automatic backup(s) per read-write workspace`,
      });
    }

    const now = this.clock.now();
    const saved = await this.store
      .unit(tx, async (trx) => {
        const existing = await repo.findBackupScheduleOfWorkspace(trx.db, ws.id);
        if (!existing) {
          if (body.schedule === undefined)
            throw new AppError('invalid', {
              field: 'schedule',
              reason: 'is required when the workspace has no backup schedule yet',
            });
          const pause = body.pause ?? false;
          const created: BackupSchedule = {
            id: newId(),
            org_id: ws.org_id,
            workspace_id: ws.id,
            schedule: body.schedule,
            max_backup_files: body.max_backup_files ?? limit,
            max_reserved_days: body.max_reserved_days ?? DEFAULT_RESERVED_DAYS,
            max_retry: body.max_retry ?? DEFAULT_RETRIES,
            pause,
            next_run_at: pause ? null : nextOccurrence(body.schedule, now),
            last_run_at: null,
            last_run_outcome: null,
            last_run_reason: null,
            last_backup_id: null,
            created_at: now,
            updated_at: now,
            version_number: 1,
          };
          await repo.insertBackupSchedule(trx.db, created);
          return created;
        }
        const changes: BackupScheduleChanges = {
          ...(body.schedule !== undefined ? { schedule: body.schedule } : {}),
          ...(body.max_backup_files !== undefined ? { max_backup_files: body.max_backup_files } : {}),
          ...(body.max_reserved_days !== undefined ? { max_reserved_days: body.max_reserved_days } : {}),
          ...(body.max_retry !== undefined ? { max_retry: body.max_retry } : {}),
          ...(body.pause !== undefined ? { pause: body.pause } : {}),
        };
        const merged = { ...existing, ...changes };
        // The next firing moves only when the expression or the pause changes.
        if (merged.schedule !== existing.schedule || merged.pause !== existing.pause) {
          changes.next_run_at = merged.pause ? null : nextOccurrence(merged.schedule, now);
        }
        if (!(await repo.updateBackupSchedule(trx.db, existing, changes, now))) throw changedMeanwhile();
        return { ...merged, ...changes, updated_at: now, version_number: existing.version_number + 1 };
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw changedMeanwhile();
        throw err;
      });
    return backupScheduleRecord(saved);
  }
}
