import type { Executor } from '../store.js';

/** One API key's use of one Idempotency-Key value. */
export interface IdempotencyScope {
  apiKeyId: string;
  key: string;
}

export interface IdempotencyRecord {
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: number;
}

/** Claims the scope for a new request; false when a record for it already exists. */
export async function claimIdempotencyKey(
  db: Executor,
  scope: IdempotencyScope,
  requestHash: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({
      api_key_id: scope.apiKeyId,
      key: scope.key,
      request_hash: requestHash,
      status_code: null,
      response_body: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findIdempotencyRecord(
  db: Executor,
  scope: IdempotencyScope,
): Promise<IdempotencyRecord | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response_body', 'created_at'])
    .where('api_key_id', '=', scope.apiKeyId)
    .where('key', '=', scope.key)
    .executeTakeFirst();
}

export async function completeIdempotencyKey(
  db: Executor,
  scope: IdempotencyScope,
  statusCode: number,
  body: string,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: statusCode, response_body: body })
    .where('api_key_id', '=', scope.apiKeyId)
    .where('key', '=', scope.key)
    .execute();
}

export async function releaseIdempotencyKey(db: Executor, scope: IdempotencyScope): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', scope.apiKeyId)
    .where('key', '=', scope.key)
    .execute();
}

/** Forgets keys older than the cutoff so they may be reused. */
export async function purgeIdempotencyKeys(db: Executor, before: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
}
