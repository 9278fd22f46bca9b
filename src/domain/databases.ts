import type { Store } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as dbRepo from '../store/repositories/databases.js';
import type { Clock } from './clock.js';
import type { DatabaseRecord, RenameDatabaseBody } from '../schemas/workspace.js';
import { conflict, notFound, refusedByReference } from './errors.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { databaseRecord, type WorkgroupView } from './records.js';
import { checkIfMatch, type RequestContext, type WorkgroupService } from './workgroups.js';
import { requireName } from './names.js';
import { enqueueDatabaseRemoval } from './database-operations.js';

export class DatabaseService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly workgroups: WorkgroupService,
  ) {}

  async list(p: Principal, workgroupId: string, ctx: RequestContext): Promise<DatabaseRecord[]> {
    const view = await this.view(p, workgroupId);
    const rc = this.workgroups.recordContext(ctx);
    return view.databases.map((d) => databaseRecord(d, view, rc));
  }

  async get(p: Principal, workgroupId: string, databaseId: string, ctx: RequestContext): Promise<DatabaseRecord> {
    const view = await this.view(p, workgroupId);
    return databaseRecord(this.find(view, databaseId), view, this.workgroups.recordContext(ctx));
  }

  /** Seed operation 6: rename. */
  async rename(
    p: Principal,
    workgroupId: string,
    databaseId: string,
    body: RenameDatabaseBody,
    ctx: RequestContext,
  ): Promise<DatabaseRecord> {
    const view = await this.view(p, workgroupId);
    const database = this.find(view, databaseId);
    authorize(p, 'workspace:create', { workgroupId });
    checkIfMatch(ctx.ifMatch, database.version_number);
    const name = requireName('tg_database_name', body.tg_database_name);
    let renamed: boolean;
    try {
      renamed = await this.store.transaction((trx) => dbRepo.renameDatabase(trx, database, name, this.clock.now()));
    } catch (err) {
      if (isUniqueViolation(err))
        throw conflict('tg_database_name', `a database named "${name}" already exists in this workgroup`);
      throw err;
    }
    if (!renamed)
      throw conflict('version_number', 'the database was changed by another request; read it again and retry');
    return this.get(p, workgroupId, databaseId, ctx);
  }

  async delete(p: Principal, workgroupId: string, databaseId: string, ctx: RequestContext): Promise<DatabaseRecord> {
    const view = await this.view(p, workgroupId);
    const database = this.find(view, databaseId);
    authorize(p, 'workspace:delete', { workgroupId });
    checkIfMatch(ctx.ifMatch, database.version_number);
    const attached = view.workspaces.filter((w) => w.database_id === database.id);
    if (attached.length > 0) {
      throw conflict(
        'databaseID',
        `workspaces ${attached.map((w) => w.id).join(', ')} are attached to this database; delete them first`,
      );
    }
    const record = databaseRecord(database, view, this.workgroups.recordContext(ctx));
    // The workspaces' foreign key refuses the delete if one attached since the check. The
    // driver removes the graph data afterwards, in an operation of its own.
    await this.store
      .transaction(async (trx) => {
        await dbRepo.deleteDatabase(trx, database.id);
        await enqueueDatabaseRemoval(trx, database, this.clock.now());
      })
      .catch(refusedByReference('databaseID', 'a workspace attached to this database meanwhile; delete it first'));
    return record;
  }

  private async view(p: Principal, workgroupId: string): Promise<WorkgroupView> {
    return this.workgroups.view(this.store.db, p, workgroupId);
  }

  private find(view: WorkgroupView, databaseId: string) {
    const database = view.databases.find((d) => d.id === databaseId);
    if (!database) throw notFound('databaseID', `no database "${databaseId}" in workgroup ${view.workgroup.id}`);
    return database;
  }
}
