import type { Executor, Tx } from '../store/store.js';
import { findOrganisationById, lockOrganisation } from '../store/repositories/organisations.js';
import { claimOccurrence, insertScheduleRun, type Schedule } from '../store/repositories/schedules.js';
import { lockWorkspaceById, type Workspace } from '../store/repositories/workspaces.js';
import { topologyMisfit, type Catalog, type Tier } from './catalog.js';
import { AppError } from './errors.js';
import { newId } from './ids.js';
import type { Principal } from './principal.js';
import { checkTierSize, checkUpdateQuota } from './quotas.js';
import { nextOccurrence } from './schedule-rules.js';
import { timingOf } from './schedules.js';
import { beginWorkspaceOperation, type WorkspaceOpParams } from './workspace-operations.js';
import { requireStatus } from './workspace-lifecycle.js';

/** An occurrence missed by more than this (the process was down) is skipped, not run late. */
export const GRACE_MS = 15 * 60_000;

export interface FiringOutcome {
  outcome: 'started' | 'skipped';
  reason?: string;
  operationId?: string;
}

const skipped = (reason: string): FiringOutcome => ({ outcome: 'skipped', reason });

/**
 * Fires one occurrence inside the caller's transaction: claims it by compare-and-set on
 * next_run_at (so across processes and restarts it fires once), starts the action or
 * records why it could not, and writes the run. Undefined when another process won it.
 */
export async function fireOccurrence(
  trx: Tx,
  catalog: Catalog,
  s: Schedule,
  occurrence: number,
  now: number,
): Promise<FiringOutcome | undefined> {
  const late = now - occurrence;
  const missed = late > GRACE_MS;
  // After an outage, every occurrence older than the grace period is skipped in this one
  // claim (one recorded run, not one per missed day); those still within it run next.
  const next = nextOccurrence(timingOf(s), missed ? now - GRACE_MS : occurrence) ?? null;
  if (!(await claimOccurrence(trx.db, s.id, occurrence, next))) return undefined;
  const alsoMissed = missed && next !== nextOccurrence(timingOf(s), occurrence);
  const result = missed
    ? skipped(
        `missed by ${Math.round(late / 60_000)} minutes, more than the ${GRACE_MS / 60_000}-minute ` +
          `grace period${alsoMissed ? '; the occurrences missed after it are skipped with it' : ''}`,
      )
    : await startAction(trx, catalog, s, now);
  await insertScheduleRun(trx, {
    id: newId(),
    schedule_id: s.id,
    occurrence_at: occurrence,
    fired_at: now,
    outcome: result.outcome,
    reason: result.reason ?? null,
    operation_id: result.operationId ?? null,
  });
  return result;
}

async function startAction(trx: Tx, catalog: Catalog, s: Schedule, now: number): Promise<FiringOutcome> {
  // The workspace is judged as it is now and locked until the run is written, so a request
  // changing it meanwhile (a rename, say) waits rather than spoils the run. A resize checks
  // quotas: the organisation is locked first, in the order requests lock them.
  if (s.action === 'resize') await lockOrganisation(trx.db, s.org_id);
  const ws = await lockWorkspaceById(trx.db, s.workspace_id);
  if (!ws) return skipped('the workspace no longer exists');
  try {
    const params = await actionParams(trx.db, catalog, s, ws);
    if (typeof params === 'string') return skipped(params);
    const { operationId } = await beginWorkspaceOperation(trx, ws, params, now);
    return { outcome: 'started', operationId };
  } catch (err) {
    // A rule of the workspace's current state or quota forbids it now: say which.
    if (err instanceof AppError && err.code !== 'internal') return skipped(err.details.map((d) => d.reason).join('; '));
    throw err;
  }
}

/** The operation the action starts, or the reason it has nothing to do. */
async function actionParams(
  trx: Executor,
  catalog: Catalog,
  s: Schedule,
  ws: Workspace,
): Promise<WorkspaceOpParams | string> {
  switch (s.action) {
    case 'pause':
      if (ws.status === 'Stopped' || ws.status === 'Idle') return `the workspace is already ${ws.status}`;
      requireStatus(ws.status, 'pause');
      return { op: 'pause', reason: 'schedule', schedule_id: s.id };
    case 'resume':
      if (ws.status === 'Active') return 'the workspace is already Active';
      requireStatus(ws.status, 'resume');
      return { op: 'resume', reason: 'schedule', schedule_id: s.id };
    default: {
      const size = s.workspace_type_name!;
      if (ws.size === size) return `the workspace is already ${size}`;
      requireStatus(ws.status, 'update');
      // The graph may have grown since the schedule was made.
      const misfit = topologyMisfit(catalog, size, ws.graph_topology_size_bytes);
      if (misfit) return misfit;
      const org = await findOrganisationById(trx, ws.org_id);
      const p = { orgId: ws.org_id, orgName: org?.name ?? '', tier: (org?.tier ?? 'free') as Tier } as Principal;
      checkTierSize(catalog, p, 'workspace_type_name', size);
      await checkUpdateQuota(trx, catalog, p, ws, { workspace_type_name: size });
      return { op: 'update', actions: ['resize'], workspace_type_name: size, reason: 'schedule', schedule_id: s.id };
    }
  }
}
