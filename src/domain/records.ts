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
import { findSize, replicasOf, type Catalog } from './catalog.js';
import { displayStatus, type WorkspaceStatus } from './workspace-lifecycle.js';
import { iso } from './time.js';
import { asksForChange, desired, workspaceModel } from '../store/models/workspace.js';
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
    ha: replicasOf(catalog, typeName, ha),
  };
}

/** Completes a record with the fields it shows as the workspace holds them (src/store/models/workspace.ts). */
const withShownFields = workspaceModel.showInto<WorkspaceRecord>(iso);

/**
 * The record reports what the workspace runs at (`workspace_type`, `enable_ha`, `replicas`);
 * while an update changes its size or HA, `desired_workspace_type` shows what it asks for.
 */
export function workspaceRecord(ws: Workspace, view: WorkgroupView, ctx: RecordContext): WorkspaceRecord {
  const database = view.databases.find((d) => d.id === ws.database_id);
  const provider = view.provider;
  const host = proxyHost(ws, view, ctx);
  return withShownFields(ws, {
    workgroup_name: view.workgroup.name,
    ...(database ? { database_name: database.name } : {}),
    org_name: view.orgName,
    region: view.workgroup.region,
    ...(provider
      ? {
          cloud_provider_id: provider.id,
          cloud_provider_name: provider.name,
          cloud_provider_short_id: provider.short_id,
        }
      : {}),
    display_status: displayStatus[ws.status as WorkspaceStatus],
    replicas: replicasOf(ctx.catalog, ws.size, ws.enable_ha),
    workspace_type: workspaceType(ctx.catalog, ws.size, ws.enable_ha),
    ...(asksForChange(ws, 'size', 'enable_ha')
      ? { desired_workspace_type: workspaceType(ctx.catalog, desired(ws, 'size'), desired(ws, 'enable_ha')) }
      : {}),
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
    // Counts only once a driver reported them: 0 would be invented.
    ...(ws.data_observed_at !== null ? { vertex_count: ws.vertex_count, edge_count: ws.edge_count } : {}),
    size: ws.graph_topology_size_bytes,
    folder_statistics: folderStatistics(
      view.workspaces.filter((w) => w.database_id === ws.database_id),
      view.backupSizes.get(ws.database_id) ?? 0,
    ),
  });
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
    ...(wg.expires_at !== null ? { expires_at: iso(wg.expires_at) } : {}),
    ...(wg.expired_at !== null ? { expired_at: iso(wg.expired_at) } : {}),
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
  const { created_at, expires_at, expired_at, version_number, ...own } = workgroupOwnRecord(view);
  return {
    ...own,
    is_current_ip_allowed: view.callerAllowed,
    tg_databases: view.databases.map((d) => databaseRecord(d, view, ctx, workspaces)),
    workspaces: [...workspaces.values()],
    created_at,
    ...(expires_at !== undefined ? { expires_at } : {}),
    ...(expired_at !== undefined ? { expired_at } : {}),
    version_number,
  };
}
