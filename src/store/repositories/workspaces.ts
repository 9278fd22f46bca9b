import { sql, type SqlBool } from 'kysely';
import {
  workspaceColumns,
  workspaceFromRow,
  workspaceModel,
  type StoredAddon,
  type Workspace,
} from '../models/workspace.js';
import { lockedForUpdate } from '../capabilities.js';
import type { Executor } from '../store.js';
import { nameKey } from '../name-key.js';
import type { Tx } from '../unit-of-work.js';

export { workspaceFromRow, type StoredAddon, type Workspace };

export type WorkspaceChanges = Partial<
  Omit<Workspace, 'id' | 'org_id' | 'workgroup_id' | 'database_id' | 'created_at' | 'version_number'>
>;

export async function insertWorkspace(tx: Tx, ws: Workspace): Promise<void> {
  await tx.db.insertInto('workspaces').values(workspaceColumns(ws)).execute();
  tx.noteChange({ kind: 'workspace', id: ws.id, orgId: ws.org_id, change: 'created' });
}

export async function findWorkspace(db: Executor, orgId: string, id: string): Promise<Workspace | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && workspaceFromRow(row);
}

export async function findWorkspaceById(db: Executor, id: string): Promise<Workspace | undefined> {
  const row = await db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
  return row && workspaceFromRow(row);
}

/**
 * Reads a workspace to change it in this transaction: on PostgreSQL the row stays locked until
 * the transaction ends, so a concurrent writer (the engine finishing an operation) waits
 * instead of making this change's compare-and-set fail; SQLite's transaction holds the
 * write lock already.
 */
export async function lockWorkspaceById(trx: Executor, id: string): Promise<Workspace | undefined> {
  const query = trx.selectFrom('workspaces').selectAll().where('id', '=', id);
  const row = await lockedForUpdate(trx, query).executeTakeFirst();
  return row && workspaceFromRow(row);
}

export async function listWorkspacesOfWorkgroups(db: Executor, workgroupIds: string[]): Promise<Workspace[]> {
  if (workgroupIds.length === 0) return [];
  const rows = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('workgroup_id', 'in', workgroupIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(workspaceFromRow);
}

export async function listWorkspacesOfDatabase(db: Executor, databaseId: string): Promise<Workspace[]> {
  const rows = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('database_id', '=', databaseId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(workspaceFromRow);
}

export async function findWorkspaceByName(
  db: Executor,
  workgroupId: string,
  name: string,
): Promise<Workspace | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('workgroup_id', '=', workgroupId)
    .where('name_key', '=', nameKey(name))
    .executeTakeFirst();
  return row && workspaceFromRow(row);
}

/**
 * Applies the changes when the row is still at the version read (and, if given, in one of
 * the expected states); false when another request or process changed it first.
 */
export async function updateWorkspace(
  tx: Tx,
  ws: Pick<Workspace, 'id' | 'version_number'>,
  changes: WorkspaceChanges,
  now: number,
  expectStatus?: readonly string[],
): Promise<boolean> {
  let query = tx.db
    .updateTable('workspaces')
    .set({ ...workspaceColumns(changes), updated_at: now, version_number: ws.version_number + 1 })
    .where('id', '=', ws.id)
    .where('version_number', '=', ws.version_number);
  if (expectStatus) query = query.where('status', 'in', expectStatus);
  const result = await query.executeTakeFirst();
  const updated = Number(result.numUpdatedRows) === 1;
  if (updated) {
    const was = (ws as Partial<Workspace>).status;
    const moved = changes.status !== undefined && changes.status !== was;
    tx.noteChange({ kind: 'workspace', id: ws.id, change: moved ? 'status_changed' : 'updated' });
  }
  return updated;
}

/**
 * Records data-plane activity. It is not a change of the record, so version_number stays
 * (If-Match of API clients is not broken by traffic); time only moves forward.
 */
export async function recordActivity(db: Executor, id: string, now: number): Promise<void> {
  await db
    .updateTable('workspaces')
    .set({ last_activity_at: now })
    .where('id', '=', id)
    .where('last_activity_at', '<', now)
    .execute();
}

export async function deleteWorkspace(tx: Tx, id: string): Promise<void> {
  const gone = await tx.db
    .deleteFrom('workspaces')
    .where('id', '=', id)
    .returning(['org_id', 'workgroup_id'])
    .executeTakeFirst();
  if (gone) {
    const { org_id: orgId, workgroup_id: workgroupId } = gone;
    tx.noteChange({ kind: 'workspace', id, orgId, workgroupId, workspaceId: id, change: 'deleted' });
  }
}

/** A workspace's shape as tier quotas count it: what it runs at, and what a running update asks for. */
export interface UsageShape {
  is_rw: boolean;
  size: string;
  enable_ha: boolean;
  desired_size: string | null;
  desired_enable_ha: boolean | null;
}

/**
 * What tier quotas count of an organisation's workspaces (all but `except`), grouped by shape:
 * a few rows however many workspaces it has.
 */
export async function workspaceUsage(
  db: Executor,
  orgId: string,
  except?: string,
): Promise<Array<UsageShape & { count: number }>> {
  const shape = ['is_rw', 'size', 'enable_ha', 'desired_size', 'desired_enable_ha'] as const;
  let query = db
    .selectFrom('workspaces')
    .select((eb) => [...shape, eb.fn.countAll<number>().as('count')])
    .where('org_id', '=', orgId)
    .groupBy([...shape]);
  if (except !== undefined) query = query.where('id', '!=', except);
  const rows = await query.execute();
  const column = workspaceModel.fromColumn;
  return rows.map((r) => ({
    is_rw: column('is_rw', r.is_rw),
    size: r.size,
    enable_ha: column('enable_ha', r.enable_ha),
    desired_size: r.desired_size,
    desired_enable_ha: column('desired_enable_ha', r.desired_enable_ha),
    count: Number(r.count),
  }));
}

/** Active workspaces with ids after `afterId`, in id order: the reconciler looks at them a page at a time. */
export async function activeWorkspacesAfter(db: Executor, afterId: string, limit: number): Promise<Workspace[]> {
  const rows = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('status', '=', 'Active')
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(workspaceFromRow);
}

/** Observed figures a driver reported of a running workspace, between operations. */
export type ObservedFigures = Partial<
  Pick<
    Workspace,
    | 'graph_topology_size_bytes'
    | 'vertex_count'
    | 'edge_count'
    | 'data_observed_at'
    | 'endpoint'
    | 'snapshot_time'
    | 'snapshot_id'
  >
>;

/**
 * Records what a look at a running workspace found. Like activity, it is no change of the
 * record by anyone: version_number stays (If-Match of API clients is not broken by data
 * growing), and nothing is written unless the workspace is still Active.
 */
export async function recordObservedFigures(db: Executor, id: string, figures: ObservedFigures): Promise<void> {
  if (Object.keys(figures).length === 0) return;
  await db
    .updateTable('workspaces')
    .set(workspaceColumns(figures))
    .where('id', '=', id)
    .where('status', '=', 'Active')
    .execute();
}

/**
 * When an auto-stopping workspace becomes idle enough, and the terms that select those
 * workspaces: written as literals, exactly as the index workspaces_auto_stop_at (migration
 * 0008) declares them, because SQLite and PostgreSQL match an expression or partial index
 * only against the same text, not against bound parameters.
 */
export const autoStopAt = sql<number>`(last_activity_at + auto_stop_minutes * 60000)`;
export const autoStopping = sql<SqlBool>`status = 'Active' and auto_stop_minutes > 0`;

/** Active workspaces whose idle time has reached their auto-stop minutes, longest idle first. */
export async function idleWorkspaces(db: Executor, now: number, limit: number): Promise<Workspace[]> {
  const rows = await db
    .selectFrom('workspaces')
    .selectAll()
    .where(autoStopping)
    .where(autoStopAt, '<=', now)
    .orderBy(autoStopAt)
    .limit(limit)
    .execute();
  return rows.map(workspaceFromRow);
}

/** The earliest instant after `after` at which an Active workspace becomes idle enough to auto-stop. */
export async function nextAutoStopAt(db: Executor, after: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .select(autoStopAt.as('at'))
    .where(autoStopping)
    .where(autoStopAt, '>', after)
    .orderBy(autoStopAt)
    .limit(1)
    .executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}

export async function maintenanceDue(db: Executor, now: number, limit: number): Promise<Workspace[]> {
  const rows = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('maintenance_due_at', '<=', now)
    .limit(limit)
    .execute();
  return rows.map(workspaceFromRow);
}

export async function nextMaintenanceAt(db: Executor, after: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.min('maintenance_due_at').as('at'))
    .where('maintenance_due_at', '>', after)
    .executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}

/** The organisation's workspaces with an upgrade waiting for a maintenance window, soonest first; at most `limit`. */
export async function scheduledUpgrades(db: Executor, orgId: string, limit: number): Promise<Workspace[]> {
  const rows = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('maintenance_due_at', 'is not', null)
    .orderBy('maintenance_due_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(workspaceFromRow);
}
