import type { Executor } from '../store/store.js';
import { workspaceUsage } from '../store/repositories/workspaces.js';
import { findSize, replicasOf, sizesAllowed, type Catalog } from './catalog.js';
import { AppError } from './errors.js';
import type { Principal } from './principal.js';

/** A workspace as quotas count it: what it runs at, and what a running update asks for (null: nothing more). */
export interface QuotaShape {
  is_rw: boolean;
  size: string;
  enable_ha: boolean;
  desired_size?: string | null;
  desired_enable_ha?: boolean | null;
}

/** Memory × replicas: each copy of a highly available workspace holds the graph. */
const memoryAt = (catalog: Catalog, size: string, ha: boolean) =>
  (findSize(catalog, size)?.memory_gb ?? 0) * replicasOf(catalog, size, ha);

/** What it runs at, or while an update runs the larger of that and what it asks for. */
const memoryOf = (catalog: Catalog, w: QuotaShape) =>
  Math.max(
    memoryAt(catalog, w.size, w.enable_ha),
    memoryAt(catalog, w.desired_size ?? w.size, w.desired_enable_ha ?? w.enable_ha),
  );

/** Whether the change asks for more memory than the workspace runs with (a resize down never does). */
const raisesMemory = (catalog: Catalog, w: QuotaShape) => memoryOf(catalog, w) > memoryAt(catalog, w.size, w.enable_ha);

/** What the organisation uses of its tier's workspace quotas now, counted as the checks below count it. */
export async function quotaUsage(
  db: Executor,
  catalog: Catalog,
  orgId: string,
): Promise<{ rw: number; ro: number; memoryGb: number }> {
  const all = await workspaceUsage(db, orgId);
  const count = (rw: boolean) => all.filter((w) => w.is_rw === rw).reduce((sum, w) => sum + w.count, 0);
  return {
    rw: count(true),
    ro: count(false),
    memoryGb: all.reduce((sum, w) => sum + memoryOf(catalog, w) * w.count, 0),
  };
}

/**
 * Quota-Exceed (403) naming `field` when a parent already holds `max` children (`what`, e.g.
 * "allow-list entries per workgroup"). Call inside the transaction that inserts the child,
 * after locking the parent, so concurrent inserts cannot overshoot together.
 */
export function checkCount(field: string, count: number, max: number, what: string): void {
  if (count >= max)
    throw new AppError('quota', { field, reason: `the limit is ${max} ${what}, and it is reached (${count})` });
}

/** Quota-Exceed (403) unless the size is within the tier's max size. */
export function checkTierSize(catalog: Catalog, p: Principal, field: string, size: string): void {
  if (p.quotaExempt) return;
  const limits = catalog.tiers[p.tier];
  if (!sizesAllowed(catalog, limits.max_size).some((s) => s.typeName === size)) {
    throw new AppError('quota', {
      field,
      reason: `${size} is above the ${p.tier} tier's largest size ${limits.max_size}`,
    });
  }
}

/**
 * Checks the organisation's RW/RO counts and memory with `change` applied: a new workspace,
 * or the update `replaces` (that workspace) asks for. Call inside the transaction that
 * writes the change, after locking the organisation, so concurrent requests cannot
 * overshoot together. An update that asks for no more memory than the workspace has is
 * never refused for memory: it cannot make an organisation over its quota worse.
 */
export async function checkWorkspaceQuota(
  trx: Executor,
  catalog: Catalog,
  p: Principal,
  change: QuotaShape,
  replaces?: string,
): Promise<void> {
  if (p.quotaExempt) return;
  const limits = catalog.tiers[p.tier];
  const all = [...(await workspaceUsage(trx, p.orgId, replaces)), { ...change, count: 1 }];
  const problems: Array<{ field: string; reason: string }> = [];
  if (replaces === undefined) {
    const kind = change.is_rw ? 'rw' : 'ro';
    const count = all.filter((w) => w.is_rw === change.is_rw).reduce((sum, w) => sum + w.count, 0);
    const max = change.is_rw ? limits.rw_workspaces : limits.ro_workspaces;
    if (count > max)
      problems.push({
        field: 'is_rw',
        reason:
          `the ${p.tier} tier allows ${max} ${kind.toUpperCase()} workspace(s); ` + `the organisation has ${count - 1}`,
      });
  }
  const memory = all.reduce((sum, w) => sum + memoryOf(catalog, w) * w.count, 0);
  if (memory > limits.memory_gb && (replaces === undefined || raisesMemory(catalog, change))) {
    problems.push({
      field: 'workspace_type_name',
      reason: `the ${p.tier} tier allows ${limits.memory_gb} GB of workspace memory; this would use ${memory} GB`,
    });
  }
  if (problems.length > 0) throw new AppError('quota', problems);
}

/**
 * Quotas of an update of workspace `ws` while it runs: the organisation's memory counts the
 * larger of what the workspace runs at and what the update asks for.
 */
export async function checkUpdateQuota(
  trx: Executor,
  catalog: Catalog,
  p: Principal,
  ws: { id: string; is_rw: boolean; size: string; enable_ha: boolean },
  asks: { workspace_type_name?: string | undefined; enable_ha?: boolean | undefined },
): Promise<void> {
  const shape: QuotaShape = {
    is_rw: ws.is_rw,
    size: ws.size,
    enable_ha: ws.enable_ha,
    desired_size: asks.workspace_type_name ?? null,
    desired_enable_ha: asks.enable_ha ?? null,
  };
  await checkWorkspaceQuota(trx, catalog, p, shape, ws.id);
}
