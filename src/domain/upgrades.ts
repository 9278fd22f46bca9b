import type { Store, Tx } from '../store/store.js';
import * as wsRepo from '../store/repositories/workspaces.js';
import type { WorkspaceRecord } from '../schemas/workspace.js';
import type { ScheduledUpgradeRecord, UpgradeWorkspaceBody } from '../schemas/upgrade.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import { Problems, conflict, notFound } from './errors.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { iso, isoOrUndefined } from './time.js';
import { noneWaiting } from './operation-kinds/workspace-upgrade.js';
import { checkUpgradeTarget, defaultUpgradeTarget } from './versions.js';
import { beginWorkspaceOperation, maintenanceDueAt } from './workspace-operations.js';
import { requireStatus } from './workspace-lifecycle.js';
import type { RequestContext } from './workgroups.js';
import type { WorkspaceService } from './workspaces.js';

const WINDOW_MS = 3_600_000;
/** Bound of GET /workspaces/upgrade-next-window; the tier quotas keep an organisation's workspaces far fewer. */
export const SCHEDULED_UPGRADES_LISTED = 500;

/**
 * Upgrades of a workspace's version (POST …/upgrade), now or in its next maintenance window,
 * and the list of those waiting for a window. One upgrade waits per workspace at most: a new
 * request replaces it. The engine runs them (workspace.upgrade; the reconciler starts the
 * scheduled ones when their window opens).
 */
export class UpgradeService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly workspaces: WorkspaceService,
    private readonly notify: (tx?: Tx) => void,
  ) {}

  async upgrade(
    p: Principal,
    workgroupId: string,
    workspaceId: string,
    body: UpgradeWorkspaceBody,
    ctx: RequestContext,
    tx?: Tx,
  ): Promise<WorkspaceRecord> {
    const ws = await this.workspaces.load(p, workgroupId, workspaceId, tx);
    authorize(p, 'workspace:edit', { workgroupId: ws.workgroup_id, workspaceId: ws.id });
    const now = this.clock.now();
    const scheduled = body.scheduled ?? false;
    const target = body.desired_version ?? defaultUpgradeTarget(this.catalog, p, now, ws.tg_version);

    const problems = new Problems();
    if (target === undefined)
      problems.add('desired_version', `no version is offered as an upgrade from ${ws.tg_version}`);
    else if (target === ws.tg_version) problems.add('desired_version', `the workspace runs ${target} already`);
    else checkUpgradeTarget(problems, 'desired_version', this.catalog, p, ws.tg_version, target, now);
    if (scheduled && ws.auto_upgrade_state === 'disabled')
      problems.add(
        'scheduled',
        'auto_upgrade_state is disabled, so no maintenance window runs upgrades: enable it, or upgrade now',
      );
    problems.throwIfAny();
    const version = target!;

    const record = await this.store.unit(tx, async (trx) => {
      const current = await wsRepo.lockWorkspaceById(trx.db, ws.id);
      if (!current) throw notFound('workspaceID', `no workspace "${ws.id}"`);
      // The target was checked against the version read first; an upgrade finished since asks again.
      if (current.tg_version !== ws.tg_version)
        throw conflict('desired_version', `the workspace now runs ${current.tg_version}; read it again and retry`);
      if (scheduled) {
        const changes = { desired_tg_version: version, upgrade_requested_at: now, upgrade_requested_by: p.keyName };
        const due = maintenanceDueAt({ ...current, ...changes }, now);
        if (!(await wsRepo.updateWorkspace(trx, current, { ...changes, maintenance_due_at: due }, now)))
          throw conflict('version_number', 'the workspace was changed by another request; read it again and retry');
      } else {
        requireStatus(current.status, 'upgrade');
        const params = { op: 'upgrade' as const, tg_version: version, from_version: current.tg_version };
        await beginWorkspaceOperation(trx, current, params, now, noneWaiting);
      }
      return this.workspaces.recordOffered(trx, p, workgroupId, workspaceId, ctx);
    });
    // A scheduled upgrade gives the engine an earlier due time to wait for.
    this.notify(tx);
    return record;
  }

  /** The organisation's workspaces that will upgrade in their next maintenance window, soonest first. */
  async nextWindow(p: Principal): Promise<ScheduledUpgradeRecord[]> {
    const waiting = await wsRepo.scheduledUpgrades(this.store.db, p.orgId, SCHEDULED_UPGRADES_LISTED);
    return waiting
      .filter((ws) => ws.desired_tg_version !== null && ws.maintenance_due_at !== null)
      .map((ws) => {
        const start = ws.maintenance_due_at!;
        const requestedAt = isoOrUndefined(ws.upgrade_requested_at);
        return {
          workspace_id: ws.id,
          workspace_name: ws.name,
          workgroup_id: ws.workgroup_id,
          status: ws.status,
          tg_version: ws.tg_version,
          desired_version: ws.desired_tg_version!,
          window_start: iso(start),
          window_end: iso(start + WINDOW_MS),
          ...(requestedAt !== undefined ? { requested_at: requestedAt } : {}),
          ...(ws.upgrade_requested_by !== null ? { requested_by: ws.upgrade_requested_by } : {}),
        };
      });
  }
}
