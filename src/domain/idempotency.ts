import { createHash } from 'node:crypto';
import type { Executor, Store } from '../store/store.js';
import * as repo from '../store/repositories/idempotency.js';
import type { Clock } from './clock.js';
import { AppError, conflict } from './errors.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * A claim still without a response after this long belongs to a request whose process died
 * (no request runs this long); it is given up so the client's retry can run.
 */
export const ABANDONED_CLAIM_MS = 5 * 60 * 1000;

export type IdempotencyOutcome = { kind: 'new' } | { kind: 'replay'; statusCode: number; body: string };

/** Forgets responses kept longer than a retry may come; the reconciler calls it. */
export async function purgeExpiredIdempotencyKeys(db: Executor, now: number): Promise<void> {
  await repo.purgeIdempotencyKeys(db, now - IDEMPOTENCY_TTL_MS);
}

export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${url}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

/**
 * Runs each POST at most once per (organisation, Idempotency-Key) for 24 hours. The key is
 * claimed before the request runs, so a concurrent duplicate is refused rather than run twice.
 */
export class IdempotencyService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async begin(orgId: string, key: string, fingerprint: string): Promise<IdempotencyOutcome> {
    const now = this.clock.now();
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await repo.claimIdempotencyKey(this.store.db, orgId, key, fingerprint, now)) return { kind: 'new' };
      const existing = await repo.findIdempotencyRecord(this.store.db, orgId, key);
      if (!existing) continue; // released between the two statements: claim again
      const abandoned = existing.status_code === null && existing.created_at <= now - ABANDONED_CLAIM_MS;
      if (abandoned || existing.created_at <= now - IDEMPOTENCY_TTL_MS) {
        await repo.releaseIdempotencyKey(this.store.db, orgId, key);
        continue;
      }
      if (existing.request_hash !== fingerprint) {
        throw new AppError('invalid', { field: 'Idempotency-Key', reason: 'was already used with a different request' });
      }
      if (existing.status_code === null || existing.response_body === null) {
        throw conflict('Idempotency-Key', 'a request with this key is still in progress; retry later');
      }
      return { kind: 'replay', statusCode: existing.status_code, body: existing.response_body };
    }
    throw conflict('Idempotency-Key', 'a request with this key is still in progress; retry later');
  }

  async complete(orgId: string, key: string, statusCode: number, body: string): Promise<void> {
    await repo.completeIdempotencyKey(this.store.db, orgId, key, statusCode, body);
  }

  /** Forgets the claim so the client may retry (used when the request failed on our side). */
  async release(orgId: string, key: string): Promise<void> {
    await repo.releaseIdempotencyKey(this.store.db, orgId, key);
  }
}
