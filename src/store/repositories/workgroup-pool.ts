import { claimSkippingLocked } from '../capabilities.js';
import { countRows } from '../count-rows.js';
import { nameKey } from '../name-key.js';
import type { Executor } from '../store.js';
import type { Tx } from '../unit-of-work.js';
import { workgroupFromRow, type Workgroup } from './workgroups.js';

/**
 * The organisation that owns the warm workgroups of the pool (docs/pooled-workgroups.md). Its
 * name begins with an underscore, which no organisation made by the admin command or a state
 * file may (src/domain/organisations.ts), so no one can hold a key of it; every lookup of
 * the API is scoped to the caller's organisation, so its workgroups are no one else's to see.
 */
export const POOL_ORGANISATION = '_pool';

/** The pool's organisation, made on first use (concurrent first uses agree through its unique name). */
export async function ensurePoolOrganisation(db: Executor, id: string, now: number): Promise<string> {
  await db
    .insertInto('organisations')
    .values({ id, name: POOL_ORGANISATION, name_key: nameKey(POOL_ORGANISATION), tier: 'enterprise', created_at: now })
    .onConflict((oc) => oc.column('name_key').doNothing())
    .execute();
  const row = await db
    .selectFrom('organisations')
    .select('id')
    .where('name_key', '=', nameKey(POOL_ORGANISATION))
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The pool's organisation id, or undefined before the pool was first filled. */
export async function findPoolOrganisation(db: Executor): Promise<string | undefined> {
  const row = await db
    .selectFrom('organisations')
    .select('id')
    .where('name_key', '=', nameKey(POOL_ORGANISATION))
    .executeTakeFirst();
  return row?.id;
}

/** The pool's members that count towards its size: every live workgroup of it, ready or still starting. */
export async function countPoolMembers(db: Executor, poolOrgId: string): Promise<number> {
  return countRows(
    db
      .selectFrom('workgroups')
      .where('org_id', '=', poolOrgId)
      .where('expired_at', 'is', null)
      .where('expires_at', 'is', null),
  );
}

/** Members whose workspace failed: they cannot be handed over, and the pool lets them go. */
export async function failedPoolMembers(db: Executor, poolOrgId: string, limit: number): Promise<Workgroup[]> {
  const rows = await db
    .selectFrom('workgroups')
    .selectAll()
    .where('org_id', '=', poolOrgId)
    .where('expires_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('workspaces')
          .select('workspaces.id')
          .whereRef('workspaces.workgroup_id', '=', 'workgroups.id')
          .where('workspaces.status', '=', 'Failed'),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map(workgroupFromRow);
}

/** Ends a failed member's life now: the workgroup expirer deletes it through the normal paths. */
export async function retirePoolMember(tx: Tx, wg: Workgroup, now: number): Promise<boolean> {
  const result = await tx.db
    .updateTable('workgroups')
    .set({ expires_at: now, updated_at: now, version_number: wg.version_number + 1 })
    .where('id', '=', wg.id)
    .where('org_id', '=', wg.org_id)
    .where('expires_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The pool's ready members: live workgroups with at least one workspace, every one of them
 * Active. One predicate for the claim and the count, so the two never disagree.
 */
function readyMembers(db: Executor, poolOrgId: string) {
  return db
    .selectFrom('workgroups')
    .where('org_id', '=', poolOrgId)
    .where('expired_at', 'is', null)
    .where('expires_at', 'is', null)
    .where((eb) => {
      const workspaces = eb
        .selectFrom('workspaces')
        .select('workspaces.id')
        .whereRef('workspaces.workgroup_id', '=', 'workgroups.id');
      return eb.and([eb.exists(workspaces), eb.not(eb.exists(workspaces.where('workspaces.status', '<>', 'Active')))]);
    });
}

/**
 * Claims the oldest ready member for this transaction. On PostgreSQL the row is locked and
 * rows another acquisition holds are passed over, so two concurrent acquisitions never claim
 * the same workgroup (the second one's update would find it moved anyway); SQLite runs one
 * writer at a time.
 */
export async function claimReadyMember(tx: Tx, poolOrgId: string): Promise<Workgroup | undefined> {
  const query = readyMembers(tx.db, poolOrgId).selectAll().orderBy('created_at').orderBy('id').limit(1);
  const row = await claimSkippingLocked(tx.db, query).executeTakeFirst();
  return row && workgroupFromRow(row);
}

/** How many ready members the pool holds now (for the log and the tests). */
export async function countReadyMembers(db: Executor, poolOrgId: string): Promise<number> {
  return countRows(readyMembers(db, poolOrgId));
}

/** What a hand-over changes beyond the organisation: the workgroup's name and creator, the workspaces' settings. */
export interface HandOver {
  toOrgId: string;
  name: string;
  creator: string;
  now: number;
  /** The auto-stop the receiving tier imposes (the free tier's), or undefined to keep the member's. */
  autoStopMinutes?: number | undefined;
  /** When the workgroup expires in its new organisation (its default life), or null. */
  expiresAt: number | null;
}

/**
 * Moves a claimed member and everything in it to another organisation in the caller's
 * transaction, and notes each resource as created there: the receiving organisation sees the
 * events a workgroup made for it would have had. The events the pool's organisation saw stay
 * with it.
 */
export async function handOverMember(tx: Tx, wg: Workgroup, to: HandOver): Promise<void> {
  const from = wg.org_id;
  const workspaces = await tx.db
    .selectFrom('workspaces')
    .select(['id', 'database_id'])
    .where('workgroup_id', '=', wg.id)
    .execute();
  const databases = await tx.db.selectFrom('databases').select('id').where('workgroup_id', '=', wg.id).execute();
  const wsIds = workspaces.map((w) => w.id);
  const dbIds = databases.map((d) => d.id);
  await tx.db
    .updateTable('workgroups')
    .set({
      org_id: to.toOrgId,
      name: to.name,
      name_key: nameKey(to.name),
      creator: to.creator,
      expires_at: to.expiresAt,
      created_at: to.now,
      updated_at: to.now,
      version_number: wg.version_number + 1,
    })
    .where('id', '=', wg.id)
    .where('org_id', '=', from)
    .execute();
  await tx.db
    .updateTable('databases')
    .set({ org_id: to.toOrgId, updated_at: to.now })
    .where('workgroup_id', '=', wg.id)
    .execute();
  await tx.db
    .updateTable('workspaces')
    .set({
      org_id: to.toOrgId,
      creator: to.creator,
      ...(to.autoStopMinutes !== undefined ? { auto_stop_minutes: to.autoStopMinutes } : {}),
      last_activity_at: to.now,
      updated_at: to.now,
      version_number: (eb) => eb('version_number', '+', 1),
    })
    .where('workgroup_id', '=', wg.id)
    .execute();
  await tx.db.updateTable('allow_list_entries').set({ org_id: to.toOrgId }).where('workgroup_id', '=', wg.id).execute();
  const resources = [wg.id, ...wsIds, ...dbIds];
  await tx.db
    .updateTable('operations')
    .set({ org_id: to.toOrgId })
    .where('org_id', '=', from)
    .where('resource_id', 'in', resources)
    .execute();
  if (wsIds.length > 0) {
    for (const table of ['db_users', 'db_secrets', 'db_tokens', 'backups', 'backup_schedules', 'schedules'] as const)
      await tx.db.updateTable(table).set({ org_id: to.toOrgId }).where('workspace_id', 'in', wsIds).execute();
  }
  tx.noteChange({ kind: 'workgroup', id: wg.id, orgId: to.toOrgId, workgroupId: wg.id, change: 'created' });
  for (const id of dbIds)
    tx.noteChange({ kind: 'database', id, orgId: to.toOrgId, workgroupId: wg.id, change: 'created' });
  for (const id of wsIds) tx.noteChange({ kind: 'workspace', id, orgId: to.toOrgId, change: 'created' });
}

/** The organisation's acquisitions since `since` (through the (org_id, acquired_at) index). */
export async function countAcquisitions(db: Executor, orgId: string, since: number): Promise<number> {
  return countRows(db.selectFrom('pool_acquisitions').where('org_id', '=', orgId).where('acquired_at', '>', since));
}

/** The earliest of the organisation's acquisitions since `since`: the cap frees a place an hour after it. */
export async function oldestAcquisitionSince(db: Executor, orgId: string, since: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('pool_acquisitions')
    .select((eb) => eb.fn.min('acquired_at').as('at'))
    .where('org_id', '=', orgId)
    .where('acquired_at', '>', since)
    .executeTakeFirst();
  return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
}

export async function insertAcquisition(
  db: Executor,
  row: { id: string; org_id: string; workgroup_id: string; acquired_at: number },
): Promise<void> {
  await db.insertInto('pool_acquisitions').values(row).execute();
}
