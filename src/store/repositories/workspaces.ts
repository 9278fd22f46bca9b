import type { Selectable, Updateable } from 'kysely';
import type { WorkspacesTable } from '../schema.js';
import type { Executor } from '../store.js';

/** A workspace as the domain sees it: booleans as booleans, JSON columns parsed. */
export interface Workspace extends Omit<Selectable<WorkspacesTable>, 'name_key' | 'is_rw' | 'enable_ha' | 'enable_auto_start' | 'addons' | 'agent_config'> {
  is_rw: boolean;
  enable_ha: boolean;
  enable_auto_start: boolean;
  addons: StoredAddon[];
  agent_config: Record<string, number | boolean> | null;
}

export interface StoredAddon {
  addons_id: string;
  enable: boolean;
  enable_configuration?: unknown;
}

export type WorkspaceChanges = Partial<Omit<Workspace, 'id' | 'org_id' | 'workgroup_id' | 'database_id' | 'created_at' | 'version_number'>>;

function fromRow(row: Selectable<WorkspacesTable>): Workspace {
  const { name_key: _n, ...rest } = row;
  return {
    ...rest,
    is_rw: row.is_rw === 1,
    enable_ha: row.enable_ha === 1,
    enable_auto_start: row.enable_auto_start === 1,
    addons: JSON.parse(row.addons),
    agent_config: row.agent_config ? JSON.parse(row.agent_config) : null,
  };
}

function toColumns(changes: WorkspaceChanges): Updateable<WorkspacesTable> {
  const { is_rw, enable_ha, enable_auto_start, addons, agent_config, name, ...rest } = changes;
  const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);
  return {
    ...rest,
    ...(name !== undefined ? { name, name_key: name.toLowerCase() } : {}),
    is_rw: flag(is_rw),
    enable_ha: flag(enable_ha),
    enable_auto_start: flag(enable_auto_start),
    ...(addons !== undefined ? { addons: JSON.stringify(addons) } : {}),
    ...(agent_config !== undefined ? { agent_config: agent_config === null ? null : JSON.stringify(agent_config) } : {}),
  };
}

export async function insertWorkspace(db: Executor, ws: Workspace): Promise<void> {
  await db.insertInto('workspaces').values(toColumns(ws) as Selectable<WorkspacesTable>).execute();
}

export async function findWorkspace(db: Executor, orgId: string, id: string): Promise<Workspace | undefined> {
  const row = await db.selectFrom('workspaces').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

export async function findWorkspaceById(db: Executor, id: string): Promise<Workspace | undefined> {
  const row = await db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

export async function listWorkspacesOfWorkgroups(db: Executor, workgroupIds: string[]): Promise<Workspace[]> {
  if (workgroupIds.length === 0) return [];
  const rows = await db.selectFrom('workspaces').selectAll().where('workgroup_id', 'in', workgroupIds).orderBy('created_at').orderBy('id').execute();
  return rows.map(fromRow);
}

export async function listWorkspacesOfDatabase(db: Executor, databaseId: string): Promise<Workspace[]> {
  const rows = await db.selectFrom('workspaces').selectAll().where('database_id', '=', databaseId).orderBy('created_at').orderBy('id').execute();
  return rows.map(fromRow);
}

export async function findWorkspaceByName(db: Executor, workgroupId: string, name: string): Promise<Workspace | undefined> {
  const row = await db.selectFrom('workspaces').selectAll().where('workgroup_id', '=', workgroupId).where('name_key', '=', name.toLowerCase()).executeTakeFirst();
  return row && fromRow(row);
}

/**
 * Applies the changes when the row is still at the version read (and, if given, in one of
 * the expected states); false when another request or process changed it first.
 */
export async function updateWorkspace(db: Executor, ws: Pick<Workspace, 'id' | 'version_number'>, changes: WorkspaceChanges, now: number, expectStatus?: readonly string[]): Promise<boolean> {
  let query = db
    .updateTable('workspaces')
    .set({ ...toColumns(changes), updated_at: now, version_number: ws.version_number + 1 })
    .where('id', '=', ws.id)
    .where('version_number', '=', ws.version_number);
  if (expectStatus) query = query.where('status', 'in', expectStatus);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records data-plane activity. It is not a change of the record, so version_number stays
 * (If-Match of API clients is not broken by traffic); time only moves forward.
 */
export async function recordActivity(db: Executor, id: string, now: number): Promise<void> {
  await db.updateTable('workspaces').set({ last_activity_at: now }).where('id', '=', id).where('last_activity_at', '<', now).execute();
}

export async function deleteWorkspace(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('workspaces').where('id', '=', id).execute();
}

/** Per-tier quota usage of an organisation: RW and RO counts and memory × replicas. */
export async function workspaceUsage(db: Executor, orgId: string): Promise<Array<{ id: string; is_rw: number; size: string; enable_ha: number }>> {
  return db.selectFrom('workspaces').select(['id', 'is_rw', 'size', 'enable_ha']).where('org_id', '=', orgId).execute();
}

/** Active workspaces whose idle time has reached their auto-stop minutes. */
export async function idleWorkspaces(db: Executor, now: number, limit: number): Promise<Workspace[]> {
  const rows = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('status', '=', 'Active')
    .where('auto_stop_minutes', '>', 0)
    .where((eb) => eb(eb('last_activity_at', '+', eb('auto_stop_minutes', '*', 60_000)), '<=', now))
    .limit(limit)
    .execute();
  return rows.map(fromRow);
}

/** The earliest instant after `after` at which an Active workspace becomes idle enough to auto-stop. */
export async function nextAutoStopAt(db: Executor, after: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.min(eb('last_activity_at', '+', eb('auto_stop_minutes', '*', 60_000))).as('at'))
    .where('status', '=', 'Active')
    .where('auto_stop_minutes', '>', 0)
    .where((eb) => eb(eb('last_activity_at', '+', eb('auto_stop_minutes', '*', 60_000)), '>', after))
    .executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}

export async function maintenanceDue(db: Executor, now: number, limit: number): Promise<Workspace[]> {
  const rows = await db.selectFrom('workspaces').selectAll().where('maintenance_due_at', '<=', now).limit(limit).execute();
  return rows.map(fromRow);
}

export async function nextMaintenanceAt(db: Executor, after: number): Promise<number | undefined> {
  const row = await db.selectFrom('workspaces').select((eb) => eb.fn.min('maintenance_due_at').as('at')).where('maintenance_due_at', '>', after).executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}

export async function countWorkspacesOfWorkgroup(db: Executor, workgroupId: string): Promise<number> {
  const row = await db.selectFrom('workspaces').select((eb) => eb.fn.countAll<number>().as('n')).where('workgroup_id', '=', workgroupId).executeTakeFirstOrThrow();
  return Number(row.n);
}
