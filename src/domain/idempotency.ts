import { createHmac } from 'node:crypto';
import { CommitFailed, type Executor, type Store, type Tx } from '../store/store.js';
import * as repo from '../store/repositories/idempotency.js';
import type { IdempotencyScope } from '../store/repositories/idempotency.js';
import type { Clock } from './clock.js';
import { AppError, conflict } from './errors.js';

export type { IdempotencyScope };

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * A claim still without a response after this long belongs to a request whose process died
 * (no request runs this long); it is given up so the client's retry can run.
 */
export const ABANDONED_CLAIM_MS = 5 * 60 * 1000;

/** A claimed Idempotency-Key; `settled` once its record holds the answer, or may (see runOnce). */
export interface IdempotencyClaim {
  readonly scope: IdempotencyScope;
  settled: boolean;
}

export type IdempotencyOutcome =
  { kind: 'new'; claim: IdempotencyClaim } | { kind: 'replay'; statusCode: number; body: string };

/** A request's answer: what is sent, and what is kept for replays (without one-time secrets). */
export interface Answer {
  statusCode: number;
  body: string;
  kept: string;
}

/** Forgets responses kept longer than a retry may come; the reconciler calls it. */
export async function purgeExpiredIdempotencyKeys(db: Executor, now: number): Promise<void> {
  await repo.purgeIdempotencyKeys(db, now - IDEMPOTENCY_TTL_MS);
}

/**
 * What tells one request from another under the same Idempotency-Key: method, URL and body,
 * keyed with the caller's API key. A body may hold a secret (a database user's password),
 * and a plain hash of it could be guessed offline by whoever reads the store; without the
 * API key, which the store does not hold, this cannot.
 */
export function requestFingerprint(apiKey: string, method: string, url: string, body: unknown): string {
  return createHmac('sha256', apiKey)
    .update(`${method} ${url}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

/**
 * Runs each POST at most once per (API key, Idempotency-Key) for 24 hours. The key is
 * claimed before the request runs, so a concurrent duplicate is refused rather than run
 * twice. A response is replayed only to the API key that made the request.
 */
export class IdempotencyService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async begin(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyOutcome> {
    const now = this.clock.now();
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await repo.claimIdempotencyKey(this.store.db, scope, fingerprint, now))
        return { kind: 'new', claim: { scope, settled: false } };
      const existing = await repo.findIdempotencyRecord(this.store.db, scope);
      if (!existing) continue; // released between the two statements: claim again
      const abandoned = existing.status_code === null && existing.created_at <= now - ABANDONED_CLAIM_MS;
      if (abandoned || existing.created_at <= now - IDEMPOTENCY_TTL_MS) {
        await repo.releaseIdempotencyKey(this.store.db, scope);
        continue;
      }
      if (existing.request_hash !== fingerprint) {
        throw new AppError('invalid', {
          field: 'Idempotency-Key',
          reason: 'was already used with a different request',
        });
      }
      if (existing.status_code === null || existing.response_body === null) {
        throw conflict('Idempotency-Key', 'a request with this key is still in progress; retry later');
      }
      return { kind: 'replay', statusCode: existing.status_code, body: existing.response_body };
    }
    throw conflict('Idempotency-Key', 'a request with this key is still in progress; retry later');
  }

  /**
   * Runs the request and records its answer in one unit of work, handed to `run`, which
   * every write of the request receives: after a crash either both were committed (a retry
   * replays the answer) or neither (the claim is given up after ABANDONED_CLAIM_MS and the
   * retry runs once). A failure rolls the writes back and leaves the claim to `settle`; a
   * COMMIT whose outcome is unknown (the connection went) leaves the claim as it is, for the
   * same reason.
   */
  async runOnce(claim: IdempotencyClaim, run: (tx: Tx) => Promise<Answer>): Promise<string> {
    try {
      const body = await this.store.transaction(async (tx) => {
        const answer = await run(tx);
        await repo.completeIdempotencyKey(tx.db, claim.scope, answer.statusCode, answer.kept);
        return answer.body;
      });
      claim.settled = true;
      return body;
    } catch (err) {
      if (err instanceof CommitFailed && !err.outcomeKnown) claim.settled = true;
      throw err;
    }
  }

  /**
   * Records an answer given outside runOnce (a refusal, after the request's writes were
   * rolled back): kept below 500, while at 500 and above the claim is given up so the
   * client's retry runs again. `kept` must hold no secret.
   */
  async settle(claim: IdempotencyClaim, statusCode: number, kept: string | undefined): Promise<void> {
    if (claim.settled) return;
    claim.settled = true;
    if (statusCode >= 500 || kept === undefined) await repo.releaseIdempotencyKey(this.store.db, claim.scope);
    else await repo.completeIdempotencyKey(this.store.db, claim.scope, statusCode, kept);
  }
}
