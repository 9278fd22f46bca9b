import type { Executor } from '../store.js';

export interface IdempotencyRecord {
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: number;
}

/** Claims (org, key) for a new request; false when a record for it already exists. */
export async function claimIdempotencyKey(db: Executor, orgId: string, key: string, requestHash: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ org_id: orgId, key, request_hash: requestHash, status_code: null, response_body: null, created_at: now })
    .onConflict((oc) => oc.columns(['org_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findIdempotencyRecord(db: Executor, orgId: string, key: string): Promise<IdempotencyRecord | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response_body', 'created_at'])
    .where('org_id', '=', orgId)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function completeIdempotencyKey(db: Executor, orgId: string, key: string, statusCode: number, body: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: statusCode, response_body: body })
    .where('org_id', '=', orgId)
    .where('key', '=', key)
    .execute();
}

export async function releaseIdempotencyKey(db: Executor, orgId: string, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('org_id', '=', orgId).where('key', '=', key).execute();
}

/** Forgets keys older than the cutoff so they may be reused. */
export async function purgeIdempotencyKeys(db: Executor, before: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
}
