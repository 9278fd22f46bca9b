import type { Executor } from '../store/store.js';
import {
  findWorkgroupRows,
  findWorkspaceRows,
  type ViewCaller,
  type WorkgroupRows,
} from '../store/repositories/record-views.js';
import type { Workgroup } from '../store/repositories/workgroups.js';
import type { Workspace } from '../store/repositories/workspaces.js';
import type { Database } from '../store/repositories/databases.js';
import type { WorkgroupRecord } from '../schemas/workgroup.js';
import type { DatabaseRecord, WorkspaceRecord } from '../schemas/workspace.js';
import { findSize, type Catalog } from './catalog.js';
import { displayStatus, type WorkspaceStatus } from './workspace-lifecycle.js';
import { iso, isoOrUndefined } from './time.js';
import { storedCaller } from '../addresses/cidr.js';

/** A workgroup with everything its records embed, read in one statement (store/repositories/record-views). */
export interface WorkgroupView extends WorkgroupRows {
  orgName: string;
}

export interface RecordContext {
  catalog: Catalog;
  baseDomain: string;
  /** Who asks: the workgroup views of a request are read for them (none for events). */
  caller?: Caller | undefined;
}

/**
 * Who a workgroup's view is read for: `is_current_ip_allowed` is decided by the store, for
 * this address at this time, as the view is read.
 */
export interface Caller {
  ip: string;
  now: number;
}

function viewCaller(caller: Caller | undefined): ViewCaller | undefined {
  const address = caller && storedCaller(caller.ip);
  return address && { family: address.family, address: address.bytes, now: caller.now };
}

/** The organisation a view is read for. */
export interface Org {
  orgId: string;
  orgName: string;
}

/**
 * The views of workgroups already found (a page of a list), in their order; `caller` is who
 * `callerAllowed` is decided for (without one, an enabled list allows nobody).
 */
export async function loadViews(
  db: Executor,
  orgName: string,
  workgroups: Workgroup[],
  caller?: Caller,
): Promise<WorkgroupView[]> {
  if (workgroups.length === 0) return [];
  const rows = await findWorkgroupRows(
    db,
    workgroups[0]!.org_id,
    workgroups.map((w) => w.id),
    viewCaller(caller),
  );
  return rows.map((r) => ({ ...r, orgName }));
}

/** One workgroup of the organisation and what its record embeds; undefined when there is none. */
export async function loadViewById(
  db: Executor,
  org: Org,
  workgroupId: string,
  caller?: Caller,
): Promise<WorkgroupView | undefined> {
  const [rows] = await findWorkgroupRows(db, org.orgId, [workgroupId], viewCaller(caller));
  return rows && { ...rows, orgName: org.orgName };
}

/**
 * One workspace and the part of its workgroup's view its record needs (its database and the
 * workspaces sharing it, for folder_statistics), whatever the size of the workgroup.
 * `workspace` is undefined when the workgroup exists without it; the whole is undefined
 * without the workgroup.
 */
export async function loadWorkspaceView(
  db: Executor,
  org: Org,
  workgroupId: string,
  workspaceId: string,
): Promise<{ ws: Workspace | undefined; view: WorkgroupView } | undefined> {
  const rows = await findWorkspaceRows(db, org.orgId, workgroupId, workspaceId);
  if (!rows) return undefined;
  const database: Database | undefined = rows.database;
  const view: WorkgroupView = {
    workgroup: rows.workgroup,
    provider: rows.provider,
    orgName: org.orgName,
    databases: database ? [database] : [],
    workspaces: rows.siblings,
    callerAllowed: false,
    backupSizes: rows.workspace ? new Map([[rows.workspace.database_id, rows.backupSize]]) : new Map(),
  };
  return { ws: rows.workspace, view };
}

/** Every workspace's size, a total that is their sum, and the database's Succeeded backups' size. */
function folderStatistics(workspaces: Workspace[], backupSize: number) {
  const entries = workspaces.map((w) => ({ size: w.graph_topology_size_bytes, workspace_id: w.id }));
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  return {
    total_size: total,
    billed_size: total,
    backup_size: backupSize,
    log_size: 0,
    vector_size: 0,
    milvus_size: 0,
    workspaces: entries,
  };
}

export function proxyHost(ws: Workspace, view: WorkgroupView, ctx: RecordContext): string {
  return `${ws.id}.${view.workgroup.region}.i.${ctx.baseDomain}`;
}

/** `workspace_type` of a size and HA setting: the catalog's resources and the replica count. */
function workspaceType(
  catalog: Catalog,
  typeName: string,
  ha: boolean,
): NonNullable<WorkspaceRecord['workspace_type']> {
  const size = findSize(catalog, typeName);
  return {
    typeName,
    ...(size ? { cpu: String(size.cpu), memory: `${size.memory_gb}Gi`, partition: size.partition } : {}),
    ha: ha ? 2 : 1,
  };
}

/**
 * The record reports what the workspace runs at (`workspace_type`, `enable_ha`, `replicas`);
 * while an update changes its size or HA, `desired_workspace_type` shows what it asks for.
 */
export function workspaceRecord(ws: Workspace, view: WorkgroupView, ctx: RecordContext): WorkspaceRecord {
  const replicas = ws.enable_ha ? 2 : 1;
  const asking = ws.desired_size !== null || ws.desired_enable_ha !== null;
  const database = view.databases.find((d) => d.id === ws.database_id);
  const provider = view.provider;
  const host = proxyHost(ws, view, ctx);
  return {
    workspace_id: ws.id,
    name: ws.name,
    workgroup_id: view.workgroup.id,
    workgroup_name: view.workgroup.name,
    database_id: ws.database_id,
    ...(database ? { database_name: database.name } : {}),
    org_id: ws.org_id,
    org_name: view.orgName,
    region: view.workgroup.region,
    ...(provider
      ? {
          cloud_provider_id: provider.id,
          cloud_provider_name: provider.name,
          cloud_provider_short_id: provider.short_id,
        }
      : {}),
    status: ws.status as WorkspaceStatus,
    display_status: displayStatus[ws.status as WorkspaceStatus],
    condition_type: ws.condition_type as WorkspaceRecord['condition_type'],
    ...(ws.err_message ? { err_message: ws.err_message } : {}),
    is_rw: ws.is_rw,
    enable_ha: ws.enable_ha,
    replicas,
    workspace_type: workspaceType(ctx.catalog, ws.size, ws.enable_ha),
    ...(asking
      ? {
          desired_workspace_type: workspaceType(
            ctx.catalog,
            ws.desired_size ?? ws.size,
            ws.desired_enable_ha ?? ws.enable_ha,
          ),
        }
      : {}),
    tg_version: ws.tg_version,
    ...(ws.desired_tg_version ? { desired_tg_version: ws.desired_tg_version } : {}),
    update_strategy: ws.update_strategy as WorkspaceRecord['update_strategy'],
    auto_upgrade_state: ws.auto_upgrade_state as WorkspaceRecord['auto_upgrade_state'],
    auto_stop_minutes: ws.auto_stop_minutes,
    enable_auto_start: ws.enable_auto_start,
    maintenance_window_day_of_week: ws.mw_day_of_week,
    maintenance_window_hour_of_day: ws.mw_hour_of_day,
    maintenance_window_interval_weeks: ws.mw_interval_weeks,
    maintenance_window_time_zone: ws.mw_time_zone,
    ...(ws.last_maintenance ? { last_maintenance: iso(ws.last_maintenance) } : {}),
    proxy_host: host,
    nginx_host: host,
    enable_copilot: ws.addons.some(
      (a) => a.enable && ctx.catalog.addons.find((c) => c.addons_id === a.addons_id)?.unique_name === 'copilot',
    ),
    addons: ws.addons.map((a) => {
      const entry = ctx.catalog.addons.find((c) => c.addons_id === a.addons_id);
      const config = a.enable_configuration;
      return {
        addons_id: a.addons_id,
        enable: a.enable,
        ...(config !== undefined ? { enable_configuration: config as string | Record<string, unknown> } : {}),
        ...(entry ? { is_free: entry.is_free, unique_name: entry.unique_name } : {}),
        workspace_id: ws.id,
      };
    }),
    ...(ws.agent_config ? { agent_config: ws.agent_config } : {}),
    ...(ws.solution_catalog_id ? { solution_catalog_id: ws.solution_catalog_id } : {}),
    // Counts only once a driver reported them: 0 would be invented.
    ...(ws.data_observed_at !== null ? { vertex_count: ws.vertex_count, edge_count: ws.edge_count } : {}),
    graph_topology_size_bytes: ws.graph_topology_size_bytes,
    size: ws.graph_topology_size_bytes,
    ...(ws.refresh_status
      ? { refresh_status: ws.refresh_status as NonNullable<WorkspaceRecord['refresh_status']> }
      : {}),
    ...(ws.refresh_message ? { refresh_message: ws.refresh_message } : {}),
    ...(ws.snapshot_time ? { snapshot_time: isoOrUndefined(ws.snapshot_time)! } : {}),
    folder_statistics: folderStatistics(
      view.workspaces.filter((w) => w.database_id === ws.database_id),
      view.backupSizes.get(ws.database_id) ?? 0,
    ),
    ...(ws.creator ? { creator: ws.creator } : {}),
    created_at: iso(ws.created_at),
    last_modified_time: iso(ws.updated_at),
    version_number: ws.version_number,
  };
}

/**
 * A database's record without the records of its workspaces: what its events carry (each
 * workspace has events of its own).
 */
export function databaseOwnRecord(db: Database, view: WorkgroupView): Omit<DatabaseRecord, 'workspaces'> {
  return {
    database_id: db.id,
    name: db.name,
    workgroup_id: db.workgroup_id,
    org_id: db.org_id,
    org_name: view.orgName,
    region: view.workgroup.region,
    tg_version: db.tg_version,
    create_time: iso(db.created_at),
    folder_statistics: folderStatistics(
      view.workspaces.filter((w) => w.database_id === db.id),
      view.backupSizes.get(db.id) ?? 0,
    ),
    version_number: db.version_number,
  };
}

/** `built`: the workspace records already made for this response (a workgroup's), used again rather than rebuilt. */
export function databaseRecord(
  db: Database,
  view: WorkgroupView,
  ctx: RecordContext,
  built?: ReadonlyMap<string, WorkspaceRecord>,
): DatabaseRecord {
  const { version_number, ...own } = databaseOwnRecord(db, view);
  const members = view.workspaces.filter((w) => w.database_id === db.id);
  return {
    ...own,
    workspaces: members.map((w) => built?.get(w.id) ?? workspaceRecord(w, view, ctx)),
    version_number,
  };
}

/**
 * A workgroup's record without what it embeds (its databases and workspaces, each with
 * events of its own) and without `is_current_ip_allowed` (which depends on who asks): what
 * its events carry.
 */
export function workgroupOwnRecord(
  view: WorkgroupView,
): Omit<WorkgroupRecord, 'tg_databases' | 'workspaces' | 'is_current_ip_allowed'> {
  const { workgroup: wg, provider } = view;
  return {
    workgroup_id: wg.id,
    name: wg.name,
    org_id: wg.org_id,
    org_name: view.orgName,
    ...(wg.creator ? { creator: wg.creator } : {}),
    cloud_provider_id: wg.cloud_provider_id,
    ...(provider
      ? {
          cloud_provider_name: provider.name,
          cloud_provider_status: provider.status as NonNullable<WorkgroupRecord['cloud_provider_status']>,
          cloud_provider_type: provider.type as NonNullable<WorkgroupRecord['cloud_provider_type']>,
        }
      : {}),
    platform: wg.platform as WorkgroupRecord['platform'],
    region: wg.region,
    enable_allow_list: wg.enable_allow_list,
    enable_application_log: wg.enable_application_log,
    ...(wg.encryption_method ? { encryption_method: wg.encryption_method as 'TMK' } : {}),
    shared_storage: wg.shared_storage,
    created_at: iso(wg.created_at),
    version_number: wg.version_number,
  };
}

/**
 * The contract's workgroup record: each workspace appears twice in it, under the workgroup
 * and under its database (the seed spec's Workgroup and Database records both list them);
 * each is built once and shared.
 */
export function workgroupRecord(view: WorkgroupView, ctx: RecordContext): WorkgroupRecord {
  const workspaces = new Map(view.workspaces.map((w) => [w.id, workspaceRecord(w, view, ctx)]));
  const { created_at, version_number, ...own } = workgroupOwnRecord(view);
  return {
    ...own,
    is_current_ip_allowed: view.callerAllowed,
    tg_databases: view.databases.map((d) => databaseRecord(d, view, ctx, workspaces)),
    workspaces: [...workspaces.values()],
    created_at,
    version_number,
  };
}
