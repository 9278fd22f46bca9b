import type { Executor } from '../store/store.js';
import { workspaceUsage } from '../store/repositories/workspaces.js';
import { findSize, sizesAllowed, type Catalog } from './catalog.js';
import { AppError } from './errors.js';
import type { Principal } from './principal.js';

/** A workspace as quotas count it. */
export interface QuotaShape {
  is_rw: boolean;
  size: string;
  enable_ha: boolean;
}

const memoryOf = (catalog: Catalog, w: QuotaShape) => (findSize(catalog, w.size)?.memory_gb ?? 0) * (w.enable_ha ? 2 : 1);

/** Quota-Exceed (403) unless the size is within the tier's max size. */
export function checkTierSize(catalog: Catalog, p: Principal, field: string, size: string): void {
  const limits = catalog.tiers[p.tier];
  if (!sizesAllowed(catalog, limits.max_size).some((s) => s.typeName === size)) {
    throw new AppError('quota', { field, reason: `${size} is above the ${p.tier} tier's largest size ${limits.max_size}` });
  }
}

/**
 * Checks the organisation's RW/RO counts and memory with `change` applied: a new workspace,
 * or the new shape of the existing workspace `replaces`. Call inside the transaction that
 * writes the change, after locking the organisation, so concurrent requests cannot
 * overshoot together.
 */
export async function checkWorkspaceQuota(trx: Executor, catalog: Catalog, p: Principal, change: QuotaShape, replaces?: string): Promise<void> {
  const limits = catalog.tiers[p.tier];
  const all = [...(await workspaceUsage(trx, p.orgId, replaces)), { ...change, count: 1 }];
  const problems: Array<{ field: string; reason: string }> = [];
  if (replaces === undefined) {
    const kind = change.is_rw ? 'rw' : 'ro';
    const count = all.filter((w) => w.is_rw === change.is_rw).reduce((sum, w) => sum + w.count, 0);
    const max = change.is_rw ? limits.rw_workspaces : limits.ro_workspaces;
    if (count > max) problems.push({ field: 'is_rw', reason: `the ${p.tier} tier allows ${max} ${kind.toUpperCase()} workspace(s); the organisation has ${count - 1}` });
  }
  const memory = all.reduce((sum, w) => sum + memoryOf(catalog, w) * w.count, 0);
  if (memory > limits.memory_gb) {
    problems.push({
      field: 'workspace_type_name',
      reason: `the ${p.tier} tier allows ${limits.memory_gb} GB of workspace memory; this would use ${memory} GB`,
    });
  }
  if (problems.length > 0) throw new AppError('quota', problems);
}
