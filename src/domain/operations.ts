import type { Store } from '../store/store.js';
import * as opsRepo from '../store/repositories/operations.js';
import type { Operation } from '../store/repositories/operations.js';
import type { OperationRecord } from '../schemas/operation.js';
import type { Page, PageResult } from '../store/pagination.js';
import { notFound } from './errors.js';
import { resumeAfter } from './paging.js';
import type { Principal } from './principal.js';
import { iso } from './time.js';

/** The instants RFC 3339 can write (years 0000 to 9999). */
const EARLIEST = -62_167_219_200_000; // 0000-01-01T00:00:00Z (Date.UTC reads year 0 as 1900)
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * A stored time as RFC 3339, pinned to the range it can express: a row written with a time
 * out of range (by a version that did not bound fault-injection delays) still lists, rather
 * than failing the whole list.
 */
function at(ms: number): string {
  return iso(Number.isFinite(ms) ? Math.min(Math.max(ms, EARLIEST), LATEST) : LATEST);
}

export function operationRecord(op: Operation): OperationRecord {
  return {
    id: op.id,
    kind: op.kind,
    resource_type: op.resource_type as OperationRecord['resource_type'],
    resource_id: op.resource_id,
    state: op.state,
    attempt: op.attempt,
    max_attempts: op.max_attempts,
    params: op.params,
    ...(op.error ? { error: op.error } : {}),
    run_at: at(op.run_at),
    created_at: at(op.created_at),
    updated_at: at(op.updated_at),
    ...(op.finished_at ? { finished_at: at(op.finished_at) } : {}),
  };
}

export class OperationService {
  constructor(private readonly store: Store) {}

  async get(p: Principal, id: string): Promise<OperationRecord> {
    const op = await opsRepo.findOperation(this.store.db, p.orgId, id);
    if (!op) throw notFound('id', `no operation "${id}"`);
    return operationRecord(op);
  }

  async list(p: Principal, resourceId: string | undefined, page: Page = {}): Promise<PageResult<OperationRecord>> {
    const result = await opsRepo.listOperations(this.store.db, p.orgId, resourceId, page.limit, resumeAfter(page));
    return { ...result, items: result.items.map(operationRecord) };
  }
}
