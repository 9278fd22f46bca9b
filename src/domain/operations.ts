import type { Store } from '../store/store.js';
import * as opsRepo from '../store/repositories/operations.js';
import type { Operation } from '../store/repositories/operations.js';
import type { OperationRecord } from '../schemas/operation.js';
import type { Page, PageResult } from '../store/pagination.js';
import { notFound } from './errors.js';
import { resumeAfter } from './paging.js';
import type { Principal } from './principal.js';
import { iso, isoOrUndefined } from './time.js';

export function operationRecord(op: Operation): OperationRecord {
  return {
    id: op.id,
    kind: op.kind,
    resource_type: op.resource_type,
    resource_id: op.resource_id,
    state: op.state,
    attempt: op.attempt,
    max_attempts: op.max_attempts,
    params: op.params,
    ...(op.error ? { error: op.error } : {}),
    run_at: iso(op.run_at),
    created_at: iso(op.created_at),
    updated_at: iso(op.updated_at),
    ...(op.finished_at ? { finished_at: isoOrUndefined(op.finished_at)! } : {}),
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
