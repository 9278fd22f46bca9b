import type { Store, Tx } from '../store/store.js';
import * as backupsRepo from '../store/repositories/backups.js';
import type { Backup } from '../store/repositories/backups.js';
import { findOperation, unfinishedOperationsOf } from '../store/repositories/operations.js';
import { lockOrganisation } from '../store/repositories/organisations.js';
import { lockWorkspaceById } from '../store/repositories/workspaces.js';
import type { Workspace } from '../store/repositories/workspaces.js';
import type { Clock } from './clock.js';
import type { BackupRecord, CreateBackupBody, RestoreStatusRecord } from '../schemas/backup.js';
import { beginBackup, enqueueBackupRemoval } from './backup-operations.js';
import type { Catalog } from './catalog.js';
import { AppError, conflict, invalid, notFound } from './errors.js';
import type { Principal } from './principal.js';
import { iso, isoOrUndefined } from './time.js';
import { MAX_ATTEMPTS, beginWorkspaceOperation } from './workspace-operations.js';
import { workspaceKindName } from './operation-kinds/index.js';
import { requireStatus } from './workspace-lifecycle.js';
import type { WorkspaceService } from './workspaces.js';

export function backupRecord(b: Backup): BackupRecord {
  return {
    id: b.id,
    is_automatic: b.is_automatic,
    size_bytes: String(b.size_bytes),
    status: b.status,
    ...(b.tag !== null ? { tag: b.tag } : {}),
    time: iso(b.created_at),
    type: 'full',
    version: b.tg_version,
  };
}

const RESTORE_KIND = workspaceKindName('restore');
const unfinished = (state: string) => state === 'pending' || state === 'running';

/** Backups of RW workspaces (manual and automatic), their deletion, and restores from them. */
export class BackupService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workspaces: WorkspaceService,
    /** Wakes the engine when an operation was enqueued. */
    private readonly notify: (tx?: Tx) => void,
  ) {}

  /** Operation 9, and GET /workspaces/{ws}/backups (workgroupId undefined). */
  async list(p: Principal, workgroupId: string | undefined, workspaceId: string): Promise<BackupRecord[]> {
    const ws = await this.workspaces.find(p, workgroupId, workspaceId);
    return (await backupsRepo.listBackupsOfWorkspace(this.store.db, ws.id)).map(backupRecord);
  }

  /** A manual backup: RW and Active only, within the tier's manual backups per workspace. */
  async create(
    p: Principal,
    workgroupId: string,
    workspaceId: string,
    body: CreateBackupBody,
    tx?: Tx,
  ): Promise<BackupRecord> {
    const ws = await this.workspaces.editable(p, workgroupId, workspaceId, tx);
    requireReadWrite(ws);
    const limit = this.catalog.tiers[p.tier].manual_backups;
    const backup = await this.store.unit(tx, async (trx) => {
      // Serialises quota checks, so concurrent requests cannot overshoot together.
      await lockOrganisation(trx.db, p.orgId);
      const current = await lockWorkspaceById(trx.db, ws.id);
      if (!current) throw notFound('workspaceID', `no workspace "${ws.id}"`);
      requireActive(current);
      const used = await backupsRepo.countCountedBackups(trx.db, ws.id, false);
      if (used >= limit) {
        throw new AppError('quota', {
          field: 'workspaceID',
          reason:
            `the ${p.tier} tier allows ${limit} manual backup(s) per read-write workspace ` +
            `and this one has ${used}; delete one first (failed backups do not count)`,
        });
      }
      return beginBackup(
        trx,
        current,
        { automatic: false, tag: body.tag ?? null, maxAttempts: MAX_ATTEMPTS },
        this.clock.now(),
      );
    });
    this.notify(tx);
    return backupRecord(backup);
  }

  /** Operation 10: returns the deleted backup's id. */
  async delete(p: Principal, workgroupId: string, workspaceId: string, backupId: string): Promise<string> {
    const ws = await this.workspaces.editable(p, workgroupId, workspaceId);
    const backup = await this.backupOf(ws, backupId);
    if (backup.status === 'InProgress')
      throw conflict(
        'backup_id',
        `backup ${backupId} is InProgress; it can be deleted once it has Succeeded or Failed`,
      );
    // Under the workspace's lock, which a restore takes too: a restore from this backup either
    // started before (and is seen here) or starts after (and finds the backup gone).
    await this.store.transaction(async (trx) => {
      await lockWorkspaceById(trx.db, ws.id);
      const restoring = (await unfinishedOperationsOf(trx.db, ws.id, RESTORE_KIND)).some(
        (op) => op.params.backup_id === backupId,
      );
      if (restoring)
        throw conflict(
          'backup_id',
          `the workspace is being restored from backup ${backupId}; delete it after the restore finished`,
        );
      if (!(await backupsRepo.deleteFinishedBackup(trx, backup.id)))
        throw notFound('backup_id', `no backup "${backupId}" of workspace ${ws.id}`);
      await enqueueBackupRemoval(trx, backup, this.clock.now());
    });
    this.notify();
    return backup.id;
  }

  /** Starts a restore (Active → Restoring → Active); returns the job id, which is the operation's. */
  async restore(p: Principal, workgroupId: string, workspaceId: string, backupId: string, tx?: Tx): Promise<string> {
    const ws = await this.workspaces.editable(p, workgroupId, workspaceId, tx);
    requireReadWrite(ws);
    const backup = await this.backupOf(ws, backupId, tx);
    const { operationId } = await this.store.unit(tx, async (trx) => {
      const current = await lockWorkspaceById(trx.db, ws.id);
      if (!current) throw notFound('workspaceID', `no workspace "${ws.id}"`);
      requireStatus(current.status, 'restore');
      const fresh = await backupsRepo.findBackupById(trx.db, backup.id);
      if (!fresh) throw notFound('backup_id', `no backup "${backupId}" of workspace ${ws.id}`);
      if (fresh.status !== 'Succeeded')
        throw conflict('backup_id', `backup ${backupId} is ${fresh.status}; only a Succeeded backup can be restored`);
      return beginWorkspaceOperation(trx, current, { op: 'restore', backup_id: fresh.id }, this.clock.now());
    });
    this.notify(tx);
    return operationId;
  }

  /**
   * GET /workspaces/{ws}/backups/restore/{jobID}/status, and the long form under the workgroup
   * (`…/backups/{job}/status`), whose path parameter `field` names.
   */
  async restoreStatus(
    p: Principal,
    workgroupId: string | undefined,
    workspaceId: string,
    jobId: string,
    field = 'jobID',
  ): Promise<RestoreStatusRecord> {
    const ws = await this.workspaces.find(p, workgroupId, workspaceId);
    const op = await findOperation(this.store.db, p.orgId, jobId);
    if (!op || op.kind !== RESTORE_KIND || op.resource_id !== ws.id)
      throw notFound(field, `no restore job "${jobId}" of workspace ${ws.id}`);
    const status = unfinished(op.state) ? 'InProgress' : op.state === 'succeeded' ? 'Succeeded' : 'Failed';
    const backupId = String(op.params.backup_id ?? '');
    const output = {
      InProgress: `restoring from backup ${backupId}`,
      Succeeded: `restored from backup ${backupId}`,
      Failed: `the restore from backup ${backupId} failed: ${op.error ?? 'no reason recorded'}`,
    }[status];
    return {
      job_id: op.id,
      name: backupId,
      backup_id: backupId,
      status,
      output,
      ...(status === 'Failed' && op.error ? { error: op.error } : {}),
      created_at: iso(op.created_at),
      started_at: iso(op.created_at),
      ...(op.finished_at ? { finished_at: isoOrUndefined(op.finished_at)! } : {}),
    };
  }

  private async backupOf(ws: Workspace, backupId: string, tx?: Tx): Promise<Backup> {
    const backup = await backupsRepo.findBackup(this.store.reader(tx), ws.org_id, backupId);
    if (!backup || backup.database_id !== ws.database_id)
      throw notFound('backup_id', `no backup "${backupId}" of workspace ${ws.id}`);
    return backup;
  }
}

/** Backups and restores are of read-write workspaces; a read-only one reads its database's RW workspace. */
export function requireReadWrite(ws: Workspace): void {
  if (!ws.is_rw)
    throw invalid(
      'workspaceID',
      `workspace ${ws.id} is read-only; backups and restores are of the database's read-write workspace`,
    );
}

/** 409 unless the workspace is Active. */
export function requireActive(ws: Workspace): void {
  if (ws.status !== 'Active')
    throw conflict('status', `the workspace is ${ws.status}; to back it up it must be Active`);
}
