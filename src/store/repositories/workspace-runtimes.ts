import type { Selectable } from 'kysely';
import type { WorkspaceRuntimesTable } from '../schema.js';
import type { Executor } from '../store.js';

export type WorkspaceRuntime = Selectable<WorkspaceRuntimesTable>;

export async function findRuntime(db: Executor, workspaceId: string): Promise<WorkspaceRuntime | undefined> {
  return db.selectFrom('workspace_runtimes').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/**
 * Records `runtime` as the workspace's, when there is no record or the one there belongs to
 * `expected` (its owner and pid: what the caller saw before starting its own process). False
 * when another process recorded one meanwhile: its process serves the workspace, not ours.
 */
export async function claimRuntime(
  db: Executor,
  runtime: WorkspaceRuntime,
  expected: Pick<WorkspaceRuntime, 'owner' | 'pid'> | undefined,
): Promise<boolean> {
  if (!expected) {
    const inserted = await db
      .insertInto('workspace_runtimes')
      .values(runtime)
      .onConflict((oc) => oc.column('workspace_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const { workspace_id, ...rest } = runtime;
  const updated = await db
    .updateTable('workspace_runtimes')
    .set(rest)
    .where('workspace_id', '=', workspace_id)
    .where('owner', '=', expected.owner)
    .where('pid', '=', expected.pid)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Extends the leases of the runtimes `owner` still runs. */
export async function renewRuntimes(
  db: Executor,
  owner: string,
  workspaceIds: readonly string[],
  leaseExpiresAt: number,
): Promise<void> {
  if (workspaceIds.length === 0) return;
  await db
    .updateTable('workspace_runtimes')
    .set({ lease_expires_at: leaseExpiresAt })
    .where('owner', '=', owner)
    .where('workspace_id', 'in', workspaceIds)
    .execute();
}

/** Removes the record of a stopped runtime, unless another process has recorded its own since. */
export async function releaseRuntime(db: Executor, workspaceId: string, pid: number): Promise<void> {
  await db.deleteFrom('workspace_runtimes').where('workspace_id', '=', workspaceId).where('pid', '=', pid).execute();
}

/** Removes the workspace's record whoever owns it: its runtime was stopped for good. */
export async function removeRuntime(db: Executor, workspaceId: string): Promise<void> {
  await db.deleteFrom('workspace_runtimes').where('workspace_id', '=', workspaceId).execute();
}
