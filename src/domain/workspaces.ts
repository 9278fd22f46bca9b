import { workspaceVersion } from '../store/repositories/record-views.js';
import { refuseWhileDelinquent } from './billing.js';
import { newId } from './ids.js';
import type { Executor, Store, Tx } from '../store/store.js';
import { isUniqueViolation } from '../store/store.js';
import * as dbRepo from '../store/repositories/databases.js';
import * as wsRepo from '../store/repositories/workspaces.js';
import type { StoredAddon, Workspace, WorkspaceChanges } from '../store/repositories/workspaces.js';
import { findOperationById } from '../store/repositories/operations.js';
import { lockOrganisation } from '../store/repositories/organisations.js';
import type { Clock } from './clock.js';
import type { CreateWorkspaceBody, UpdateWorkspaceBody, WorkspaceRecord } from '../schemas/workspace.js';
import { findSize, topologyMisfit, type Catalog } from './catalog.js';
import { checkCreateVersion, checkUpgradeTarget, defaultCreateVersion } from './versions.js';
import { AppError, Problems, conflict, invalid, notFound, refusedByReference } from './errors.js';
import { isTimeZone } from './maintenance.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount, checkTierSize, checkUpdateQuota, checkWorkspaceQuota } from './quotas.js';
import { checkAddonRefs, type AddonRefList } from './addon-refs.js';
import { databaseOwnRecord, loadWorkspaceView, workspaceRecord } from './records.js';
import { acceptName, cutName } from './names.js';
import { nameKey } from '../store/name-key.js';
import { checkTestEnv, type TestEnvCheck } from './test-env.js';
import {
  beginWorkspaceOperation,
  enqueueWorkspaceOperation,
  maintenanceDueAt,
  type WorkspaceOpParams,
} from './workspace-operations.js';
import { requireStatus } from './workspace-lifecycle.js';
import { workspaceOperationKindOf } from './operation-kinds/index.js';
import { newWorkspace } from '../store/models/workspace.js';
import { checkIfMatch, type RequestContext, type WorkgroupService } from './workgroups.js';

export const DEFAULT_SIZE = 'TG-00';
/** The auto-stop the free tier imposes on its workspaces. */
export const FREE_TIER_AUTO_STOP_MINUTES = 60;

/** The status and condition a new workspace is inserted in: its creation's. */
const creating = workspaceOperationKindOf('create').transition;

/** Whether an add-on may be enabled on workspaces of an organisation. */
export type AddonGate = (db: Executor, orgId: string, addonId: string) => Promise<boolean>;

type AddonInput = NonNullable<CreateWorkspaceBody['addons']>;

const duplicateName = (name: string) =>
  conflict('name', `a workspace named "${name}" already exists in this workgroup`);

export class WorkspaceService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workgroups: WorkgroupService,
    private readonly addonEnabled: AddonGate,
    /** Wakes the engine when an operation was enqueued (once the unit it runs in, if any, commits). */
    private readonly notify: (tx?: Tx) => void,
    /** Answers whether an x_test_env is acceptable (fault injection). */
    private readonly testEnv: TestEnvCheck,
  ) {}

  async create(
    p: Principal,
    workgroupId: string,
    body: CreateWorkspaceBody,
    ctx: RequestContext,
    tx?: Tx,
  ): Promise<WorkspaceRecord> {
    const wg = await this.workgroups.load(this.store.reader(tx), p, workgroupId);
    authorize(p, 'workspace:create', { workgroupId: wg.id });
    if (wg.expired_at !== null)
      throw conflict('workgroupID', 'the workgroup has expired and is being deleted; it takes no new workspaces');

    const isRw = body.is_rw ?? true;
    const size = body.workspace_type_name ?? DEFAULT_SIZE;
    const addonLists = addonListsOf(body);
    const addons = addonLists.flatMap((l) => l.refs);
    const problems = new Problems();
    const now = this.clock.now();
    const givenName = acceptName(problems, 'name', body.name);
    const databaseName = acceptName(problems, 'database_name', body.database_name);
    this.checkSize(problems, 'workspace_type_name', size);
    // A read-only workspace runs its database's version, whatever the catalog says of it now.
    if (body.tg_version !== undefined && body.tg_database_id === undefined)
      checkCreateVersion(problems, 'tg_version', this.catalog, p, body.tg_version, now);
    this.checkWindowZone(problems, body.maintenance_window_time_zone);
    this.checkTestEnv(problems, body.x_test_env);
    await this.checkAddons(problems, p, addonLists, tx);
    if (!isRw && body.tg_database_id === undefined)
      problems.add('tg_database_id', 'is required for a read-only workspace: it attaches to an existing database');
    // A solution writes its schema, queries and data: the service installs solutions on read-write workspaces only.
    if (!isRw && body.solution_install_request !== undefined)
      problems.add('solution_install_request', 'a solution installs only on a read-write workspace (is_rw true)');
    if (body.tg_database_id !== undefined && body.database_name !== undefined)
      problems.add('database_name', 'applies only when a new database is created');
    problems.throwIfAny();
    checkTierSize(this.catalog, p, 'workspace_type_name', size);
    await refuseWhileDelinquent(this.store.reader(tx), p.orgId);

    const id = newId();
    const name = givenName ?? `workspace-${id.slice(-8)}`;
    const autoStop =
      p.tier === 'free' && !body.auto_stop_minutes ? FREE_TIER_AUTO_STOP_MINUTES : (body.auto_stop_minutes ?? 0);

    const record = await this.store
      .unit(tx, async (trx) => {
        await lockOrganisation(trx.db, p.orgId);
        await this.requireAddonsStillEnabled(trx.db, p, addonLists);
        if (await wsRepo.findWorkspaceByName(trx.db, wg.id, name)) throw duplicateName(name);
        const database = await this.databaseFor(trx, p, wg.id, body, { id, name, databaseName, isRw, now });
        // Inserted in the status its creation runs in: created and under way in one write.
        const ws = newWorkspace(
          {
            id,
            org_id: p.orgId,
            workgroup_id: wg.id,
            database_id: database.id,
            name,
            is_rw: isRw,
            size,
            enable_ha: body.enable_ha,
            status: creating.via,
            condition_type: creating.condition,
            tg_version: database.tg_version,
            update_strategy: body.update_strategy,
            auto_stop_minutes: autoStop,
            enable_auto_start: body.enable_auto_start,
            mw_day_of_week: body.maintenance_window_day_of_week,
            mw_hour_of_day: body.maintenance_window_hour_of_day,
            mw_interval_weeks: body.maintenance_window_interval_weeks,
            mw_time_zone: body.maintenance_window_time_zone,
            addons: toStoredAddons(addons),
            solution_catalog_id: body.solution_install_request?.solution_catalog_id,
            x_test_env: body.x_test_env,
            creator: p.keyName,
          },
          now,
        );
        await checkWorkspaceQuota(trx.db, this.catalog, p, ws);
        await wsRepo.insertWorkspace(trx, ws);
        await enqueueWorkspaceOperation(trx, ws, { op: 'create' }, now);
        return this.recordOffered(trx, p, wg.id, id, ctx, body.tg_database_id === undefined);
      })
      .catch((err: unknown): never => {
        if (isUniqueViolation(err)) throw duplicateName(name);
        return refusedByReference('tg_database_id', 'the database or workgroup was deleted meanwhile')(err);
      });
    this.notify(tx);
    return record;
  }

  /** The version_number the workspace's record would carry, or undefined (the read then says why). */
  async currentVersion(p: Principal, workgroupId: string, workspaceId: string): Promise<number | undefined> {
    return workspaceVersion(this.store.db, p.orgId, workgroupId, workspaceId);
  }

  async get(p: Principal, workgroupId: string, workspaceId: string, ctx: RequestContext): Promise<WorkspaceRecord> {
    return this.recordIn(this.store.db, p, workgroupId, workspaceId, ctx);
  }

  /** The record as `db` sees it. */
  private async recordIn(
    db: Executor,
    p: Principal,
    workgroupId: string,
    workspaceId: string,
    ctx: RequestContext,
  ): Promise<WorkspaceRecord> {
    return (await this.viewIn(db, p, workgroupId, workspaceId, ctx)).record;
  }

  /**
   * The record as the unit commits it, offered to the unit's events: the event of the change
   * carries the same record. With `newDatabase`, the workspace's database was created with it,
   * and its record is built from the same read and offered too.
   */
  async recordOffered(
    trx: Tx,
    p: Principal,
    workgroupId: string,
    workspaceId: string,
    ctx: RequestContext,
    newDatabase = false,
  ): Promise<WorkspaceRecord> {
    const { record, found } = await this.viewIn(trx.db, p, workgroupId, workspaceId, ctx);
    trx.offerRecord('workspace', workspaceId, record);
    const database = newDatabase ? found.view.databases[0] : undefined;
    if (database) trx.offerRecord('database', database.id, databaseOwnRecord(database, found.view));
    return record;
  }

  /** The workspace's record and the view it was built from, as `db` sees them. */
  private async viewIn(db: Executor, p: Principal, workgroupId: string, workspaceId: string, ctx: RequestContext) {
    const found = await loadWorkspaceView(db, p, workgroupId, workspaceId);
    if (!found) throw notFound('workgroupID', `no workgroup "${workgroupId}"`);
    if (!found.ws) throw notFound('workspaceID', `no workspace "${workspaceId}" in workgroup ${workgroupId}`);
    return { record: workspaceRecord(found.ws, found.view, this.workgroups.recordContext(ctx)), found };
  }

  async list(p: Principal, workgroupId: string, ctx: RequestContext): Promise<WorkspaceRecord[]> {
    const view = await this.workgroups.view(this.store.db, p, workgroupId);
    const rc = this.workgroups.recordContext(ctx);
    return view.workspaces.map((w) => workspaceRecord(w, view, rc));
  }

  async update(
    p: Principal,
    workgroupId: string,
    workspaceId: string,
    body: UpdateWorkspaceBody,
    ctx: RequestContext,
    tx?: Tx,
  ): Promise<WorkspaceRecord> {
    const ws = await this.load(p, workgroupId, workspaceId, tx);
    authorize(p, 'workspace:edit', { workgroupId: ws.workgroup_id, workspaceId: ws.id });
    checkIfMatch(ctx.ifMatch, ws.version_number);

    const problems = new Problems();
    body = { ...body, workspace_name: acceptName(problems, 'workspace_name', body.workspace_name) };
    // Compared with what was last asked for: while a resize runs, asking for the size it runs
    // at is a new change (refused while busy), not a no-op.
    const resize = body.workspace_type_name !== undefined && body.workspace_type_name !== (ws.desired_size ?? ws.size);
    const haChange = body.enable_ha !== undefined && body.enable_ha !== (ws.desired_enable_ha ?? ws.enable_ha);
    const strategy = body.update_strategy ?? ws.update_strategy;
    const upgrade = body.desired_tg_version !== undefined && body.desired_tg_version !== ws.tg_version;
    const upgradeNow = upgrade && strategy === 'immediate';
    if (body.workspace_type_name !== undefined) {
      this.checkSize(problems, 'workspace_type_name', body.workspace_type_name);
      if (resize && !ws.is_rw) problems.add('workspace_type_name', 'only read-write workspaces can be resized');
      const misfit = resize
        ? topologyMisfit(this.catalog, body.workspace_type_name, ws.graph_topology_size_bytes)
        : undefined;
      if (misfit) problems.add('workspace_type_name', misfit);
    }
    // Asking for the running version cancels a waiting upgrade; any other is checked as POST …/upgrade checks it.
    if (upgrade)
      checkUpgradeTarget(
        problems,
        'desired_tg_version',
        this.catalog,
        p,
        ws.tg_version,
        body.desired_tg_version!,
        this.clock.now(),
      );
    if (body.pause !== undefined && (resize || haChange || upgradeNow)) {
      problems.add('pause', 'cannot be combined with a resize, an HA change or an immediate upgrade in one request');
    }
    this.checkWindowZone(problems, body.maintenance_window_time_zone);
    this.checkTestEnv(problems, body.x_test_env);
    if (body.addons) await this.checkAddons(problems, p, [{ field: 'addons', refs: body.addons }], tx);
    problems.throwIfAny();
    if (resize) checkTierSize(this.catalog, p, 'workspace_type_name', body.workspace_type_name!);

    const now = this.clock.now();
    let started = false;
    const infrastructure = resize || haChange || upgradeNow;
    const enablesAddon = body.addons?.some((a) => a.enable) ?? false;
    const record = await this.inTransaction(tx, async (trx) => {
      // Organisation before workspace, the order every quota-checking writer locks in (a
      // resume may re-run a failed resize, which is checked again).
      if (infrastructure || enablesAddon || body.pause === false) await lockOrganisation(trx.db, p.orgId);
      if (enablesAddon) await this.requireAddonsStillEnabled(trx.db, p, [{ field: 'addons', refs: body.addons! }]);
      const current = await this.reload(trx.db, ws, ctx.ifMatch);
      // Built from the locked row: merges (agent_config) and derived fields must not undo a
      // change committed since the first read.
      const metadata = metadataChanges(body, current, p, upgrade && !upgradeNow, now);
      if (metadata.name !== undefined && nameKey(metadata.name) !== nameKey(current.name)) {
        const clash = await wsRepo.findWorkspaceByName(trx.db, current.workgroup_id, metadata.name);
        if (clash) throw duplicateName(metadata.name);
      }
      if (infrastructure) {
        requireStatus(current.status, 'update');
        const params: WorkspaceOpParams = {
          op: 'update',
          actions: [
            ...(resize ? (['resize'] as const) : []),
            ...(haChange ? (['ha'] as const) : []),
            ...(upgradeNow ? (['upgrade'] as const) : []),
          ],
          ...(resize ? { workspace_type_name: body.workspace_type_name! } : {}),
          ...(haChange ? { enable_ha: body.enable_ha! } : {}),
          ...(upgradeNow ? { tg_version: body.desired_tg_version! } : {}),
        };
        await checkUpdateQuota(trx.db, this.catalog, p, current, params);
        // The size and HA asked for become the desired state; the record keeps showing what
        // runs until the driver reports the change done.
        await beginWorkspaceOperation(trx, current, params, now, metadata);
        started = true;
        return this.recordOffered(trx, p, workgroupId, workspaceId, ctx);
      }
      const op = body.pause === undefined ? undefined : await this.pauseOrResume(trx.db, p, current, body.pause);
      if (op) {
        await beginWorkspaceOperation(trx, current, op, now, metadata);
        started = true;
      } else if (!(await wsRepo.updateWorkspace(trx, current, metadata, now))) {
        throw conflict('version_number', 'the workspace was changed by another request; read it again and retry');
      }
      return this.recordOffered(trx, p, workgroupId, workspaceId, ctx);
    });
    if (started) this.notify(tx);
    return record;
  }

  /** POST …/pause, …/resume, …/refresh. */
  async act(
    p: Principal,
    workgroupId: string,
    workspaceId: string,
    action: 'pause' | 'resume' | 'refresh',
    ctx: RequestContext,
    tx?: Tx,
  ): Promise<WorkspaceRecord> {
    if (action !== 'refresh') return this.update(p, workgroupId, workspaceId, { pause: action === 'pause' }, ctx, tx);
    const ws = await this.load(p, workgroupId, workspaceId, tx);
    authorize(p, 'workspace:edit', { workgroupId: ws.workgroup_id, workspaceId: ws.id });
    checkIfMatch(ctx.ifMatch, ws.version_number);
    if (ws.is_rw)
      throw invalid(
        'workspaceID',
        'only read-only workspaces refresh; a read-write workspace always has the latest data',
      );
    const record = await this.inTransaction(tx, async (trx) => {
      const current = await this.reload(trx.db, ws, ctx.ifMatch);
      requireStatus(current.status, 'refresh');
      await beginWorkspaceOperation(trx, current, { op: 'refresh' }, this.clock.now());
      return this.recordOffered(trx, p, workgroupId, workspaceId, ctx);
    });
    this.notify(tx);
    return record;
  }

  async delete(p: Principal, workgroupId: string, workspaceId: string, ctx: RequestContext): Promise<WorkspaceRecord> {
    const ws = await this.load(p, workgroupId, workspaceId);
    authorize(p, 'workspace:delete', { workgroupId: ws.workgroup_id, workspaceId: ws.id });
    checkIfMatch(ctx.ifMatch, ws.version_number);
    const record = await this.inTransaction(undefined, async (trx) => {
      const current = await this.reload(trx.db, ws, ctx.ifMatch);
      requireStatus(current.status, 'delete');
      if (current.is_rw) {
        const readers = (await wsRepo.listWorkspacesOfDatabase(trx.db, current.database_id)).filter((w) => !w.is_rw);
        if (readers.length > 0) {
          throw conflict(
            'workspaceID',
            `read-only workspaces ${readers.map((r) => r.id).join(', ')} ` +
              `read from this workspace's database; delete them first`,
          );
        }
      }
      await beginWorkspaceOperation(trx, current, { op: 'delete' }, this.clock.now());
      return this.recordOffered(trx, p, workgroupId, workspaceId, ctx);
    });
    this.notify();
    return record;
  }

  /**
   * The gateway's resume of an Idle workspace (DESIGN §7), for no principal: the same
   * compare-and-set as the API's resume. False when it is no longer Idle or another request
   * or process started the resume first.
   */
  async autoResume(workspaceId: string): Promise<boolean> {
    const started = await this.store
      .transaction(async (trx) => {
        const ws = await wsRepo.findWorkspaceById(trx.db, workspaceId);
        if (ws?.status !== 'Idle') return false;
        await beginWorkspaceOperation(trx, ws, { op: 'resume', reason: 'gateway' }, this.clock.now());
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'conflict') return false;
        throw err;
      });
    if (started) this.notify();
    return started;
  }

  /** Which operation `pause: true|false` starts from the current state; undefined for a no-op. */
  private async pauseOrResume(
    trx: Executor,
    p: Principal,
    ws: Workspace,
    pause: boolean,
  ): Promise<WorkspaceOpParams | undefined> {
    if (pause) {
      if (ws.status === 'Stopped' || ws.status === 'Idle') return undefined;
      requireStatus(ws.status, 'pause');
      return { op: 'pause' };
    }
    if (ws.status === 'Active') return undefined;
    if (ws.status === 'Failed') return this.retryOf(trx, p, ws);
    requireStatus(ws.status, 'resume');
    return { op: 'resume' };
  }

  /**
   * Resume of a Failed workspace re-runs the operation that failed, with its parameters (the
   * engine checks them when it runs it). A failed update asks its size and HA again, so the
   * quota is checked again: what it asked was given back when it failed.
   */
  private async retryOf(trx: Executor, p: Principal, ws: Workspace): Promise<WorkspaceOpParams> {
    const failed = ws.failed_operation_id ? await findOperationById(trx, ws.failed_operation_id) : undefined;
    const params: WorkspaceOpParams = (failed?.params as WorkspaceOpParams | undefined) ?? { op: 'resume' };
    if (params.op === 'delete') return { op: 'resume' };
    if (params.op === 'update') await checkUpdateQuota(trx, this.catalog, p, ws, params);
    return params;
  }

  private async databaseFor(
    trx: Tx,
    p: Principal,
    workgroupId: string,
    body: CreateWorkspaceBody,
    ws: { id: string; name: string; databaseName: string | undefined; isRw: boolean; now: number },
  ): Promise<dbRepo.Database> {
    if (body.tg_database_id !== undefined) {
      const database = await dbRepo.findDatabase(trx.db, p.orgId, body.tg_database_id);
      if (!database || database.workgroup_id !== workgroupId)
        throw notFound('tg_database_id', `no database "${body.tg_database_id}" in this workgroup`);
      if (ws.isRw)
        throw invalid(
          'tg_database_id',
          'a database has at most one read-write workspace, ever; attach read-only workspaces (is_rw: false) instead',
        );
      if (body.tg_version !== undefined && body.tg_version !== database.tg_version) {
        throw invalid('tg_version', `must be the database's version ${database.tg_version}`);
      }
      return database;
    }
    const defaultVersion = body.tg_version ?? defaultCreateVersion(this.catalog, p, ws.now);
    if (defaultVersion === undefined) throw invalid('tg_version', 'no version is offered for new workspaces');
    // The organisation is locked (create): databases are counted one creation after another.
    const limit = this.catalog.limits.databases_per_workgroup;
    checkCount('workgroupID', await dbRepo.countDatabases(trx.db, workgroupId), limit, 'databases per workgroup');
    const name = ws.databaseName ?? cutName(`${ws.name}-db`);
    const database: dbRepo.Database = {
      id: newId(),
      org_id: p.orgId,
      workgroup_id: workgroupId,
      name,
      tg_version: defaultVersion,
      rw_workspace_id: ws.id,
      created_at: ws.now,
      updated_at: ws.now,
      version_number: 1,
    };
    try {
      await dbRepo.insertDatabase(trx, database);
    } catch (err) {
      if (isUniqueViolation(err))
        throw conflict('database_name', `a database named "${name}" already exists in this workgroup`);
      throw err;
    }
    return database;
  }

  private checkSize(problems: Problems, field: string, size: string): void {
    if (!findSize(this.catalog, size))
      problems.add(field, `must be one of ${this.catalog.workspace_sizes.map((s) => s.typeName).join(', ')}`);
  }

  private checkWindowZone(problems: Problems, zone: string | undefined): void {
    if (zone !== undefined && !isTimeZone(zone))
      problems.add('maintenance_window_time_zone', `"${zone}" is not an IANA time zone`);
  }

  private checkTestEnv(problems: Problems, text: string | undefined): void {
    checkTestEnv(problems, text, this.testEnv, 'workspace');
  }

  private async checkAddons(
    problems: Problems,
    p: Principal,
    lists: readonly AddonRefList[],
    tx: Tx | undefined,
  ): Promise<void> {
    checkAddonRefs(problems, this.catalog, lists);
    for (const { field, refs } of lists) {
      for (const [i, a] of refs.entries()) {
        const known = this.catalog.addons.some((c) => c.addons_id === a.addons_id);
        if (known && a.enable && !(await this.addonEnabled(this.store.reader(tx), p.orgId, a.addons_id))) {
          problems.add(
            `${field}[${i}].enable`,
            `add-on ${a.addons_id} is not installed and enabled for this organisation`,
          );
        }
      }
    }
  }

  /**
   * `checkAddons` again, under the organisation's lock: disabling an add-on takes that lock
   * and checks no workspace uses it, so of the two one sees the other's commit.
   */
  private async requireAddonsStillEnabled(trx: Executor, p: Principal, lists: readonly AddonRefList[]): Promise<void> {
    for (const { field, refs } of lists) {
      for (const [i, a] of refs.entries()) {
        if (a.enable && !(await this.addonEnabled(trx, p.orgId, a.addons_id))) {
          throw conflict(`${field}[${i}].enable`, `add-on ${a.addons_id} was disabled for this organisation meanwhile`);
        }
      }
    }
  }

  /** The workspace of the caller's organisation in that workgroup, or Not-Found. */
  /** The workspace of the organisation's workgroup: one read; the workgroup is read only to say which is missing. */
  async load(p: Principal, workgroupId: string, workspaceId: string, tx?: Tx): Promise<Workspace> {
    const db = this.store.reader(tx);
    const ws = await wsRepo.findWorkspace(db, p.orgId, workspaceId);
    if (ws && ws.workgroup_id === workgroupId) return ws;
    await this.workgroups.load(db, p, workgroupId);
    throw notFound('workspaceID', `no workspace "${workspaceId}" in workgroup ${workgroupId}`);
  }

  /**
   * The workspace of the caller's organisation, by workgroup path or by id alone (the `/workspaces/{id}` routes);
   * Not-Found otherwise.
   */
  async find(p: Principal, workgroupId: string | undefined, workspaceId: string, tx?: Tx): Promise<Workspace> {
    if (workgroupId !== undefined) return this.load(p, workgroupId, workspaceId, tx);
    const ws = await wsRepo.findWorkspace(this.store.reader(tx), p.orgId, workspaceId);
    if (!ws) throw notFound('workspaceID', `no workspace "${workspaceId}"`);
    return ws;
  }

  /** The workspace, if the key may edit it (settings, backups, schedules, db users). */
  async editable(p: Principal, workgroupId: string | undefined, workspaceId: string, tx?: Tx): Promise<Workspace> {
    const ws = await this.find(p, workgroupId, workspaceId, tx);
    authorize(p, 'workspace:edit', { workgroupId: ws.workgroup_id, workspaceId: ws.id });
    return ws;
  }

  /**
   * The workspace as this transaction will change it, locked against concurrent writers; If-Match is checked again
   * here.
   */
  private async reload(trx: Executor, ws: Workspace, ifMatch: number | undefined): Promise<Workspace> {
    const current = await wsRepo.lockWorkspaceById(trx, ws.id);
    if (!current) throw notFound('workspaceID', `no workspace "${ws.id}"`);
    checkIfMatch(ifMatch, current.version_number);
    return current;
  }

  private inTransaction<T>(tx: Tx | undefined, fn: (trx: Tx) => Promise<T>): Promise<T> {
    return this.store.unit(tx, fn).catch((err: unknown) => {
      if (err instanceof AppError || !isUniqueViolation(err)) throw err;
      throw conflict('name', 'a workspace with that name already exists in this workgroup');
    });
  }
}

/** The add-on refs of a creation: `addons` and the solution's, each named as the body names it. */
function addonListsOf(body: CreateWorkspaceBody): AddonRefList[] {
  return [
    ...(body.addons ? [{ field: 'addons', refs: body.addons }] : []),
    ...(body.solution_install_request?.addons
      ? [{ field: 'solution_install_request.addons', refs: body.solution_install_request.addons }]
      : []),
  ];
}

function toStoredAddons(addons: AddonInput): StoredAddon[] {
  return addons.map((a) => ({
    addons_id: a.addons_id,
    enable: a.enable,
    ...(a.enable_configuration !== undefined ? { enable_configuration: a.enable_configuration } : {}),
  }));
}

/**
 * The metadata-only changes of an update, on the workspace row as it is now: fields the body
 * carries (agent_config merged into the row's), and the upgrade's due time derived from them.
 */
function metadataChanges(
  body: UpdateWorkspaceBody,
  row: Workspace,
  p: Principal,
  pendingUpgrade: boolean,
  now: number,
): WorkspaceChanges {
  const changes: WorkspaceChanges = {
    ...(body.workspace_name !== undefined ? { name: body.workspace_name } : {}),
    ...(body.auto_stop_minutes !== undefined
      ? {
          auto_stop_minutes:
            p.tier === 'free' && body.auto_stop_minutes === 0 ? FREE_TIER_AUTO_STOP_MINUTES : body.auto_stop_minutes,
        }
      : {}),
    ...(body.enable_auto_start !== undefined ? { enable_auto_start: body.enable_auto_start } : {}),
    ...(body.maintenance_window_day_of_week !== undefined
      ? { mw_day_of_week: body.maintenance_window_day_of_week }
      : {}),
    ...(body.maintenance_window_hour_of_day !== undefined
      ? { mw_hour_of_day: body.maintenance_window_hour_of_day }
      : {}),
    ...(body.maintenance_window_interval_weeks !== undefined
      ? { mw_interval_weeks: body.maintenance_window_interval_weeks }
      : {}),
    ...(body.maintenance_window_time_zone !== undefined ? { mw_time_zone: body.maintenance_window_time_zone } : {}),
    ...(body.update_strategy !== undefined ? { update_strategy: body.update_strategy } : {}),
    ...(body.auto_upgrade_state !== undefined ? { auto_upgrade_state: body.auto_upgrade_state } : {}),
    ...(body.addons !== undefined ? { addons: toStoredAddons(body.addons) } : {}),
    ...(body.agent_config !== undefined ? { agent_config: { ...(row.agent_config ?? {}), ...body.agent_config } } : {}),
    ...(body.x_test_env !== undefined ? { x_test_env: body.x_test_env || null } : {}),
    ...(body.desired_tg_version !== undefined
      ? pendingUpgrade
        ? { desired_tg_version: body.desired_tg_version, upgrade_requested_at: now, upgrade_requested_by: p.keyName }
        : { desired_tg_version: null, upgrade_requested_at: null, upgrade_requested_by: null }
      : {}),
  };
  changes.maintenance_due_at = maintenanceDueAt({ ...row, ...changes }, now);
  return changes;
}
