import type { Clock } from './clock.js';

/**
 * How failed logins are slowed: the first `freeFailures` cost nothing; each further one
 * makes the next attempt wait `firstDelayMs`, doubling (1, 2, 4, 8, 16 s); at
 * `lockoutFailures` attempts are refused for `lockoutMs`, and again after every further
 * failure. A success, or `forgetMs` without a failure, starts afresh.
 */
export interface ThrottlePolicy {
  freeFailures: number;
  firstDelayMs: number;
  lockoutFailures: number;
  lockoutMs: number;
  forgetMs: number;
  /** Keys remembered at most; past it the least recently failed is forgotten first. */
  maxKeys: number;
}

export const defaultThrottlePolicy: ThrottlePolicy = {
  freeFailures: 5,
  firstDelayMs: 1000,
  lockoutFailures: 10,
  lockoutMs: 15 * 60_000,
  // Longer than the lockout, so the failure after a lockout locks again at once.
  forgetMs: 60 * 60_000,
  maxKeys: 10_000,
};

interface Failures {
  count: number;
  lastAt: number;
  blockedUntil: number;
}

/**
 * Failed-login counts per key (the gateway's: client and database user), in memory, bounded, on the injectable clock.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly clock: Clock,
    private readonly policy: ThrottlePolicy = defaultThrottlePolicy,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  waitMs(key: string): number {
    const entry = this.failures.get(key);
    if (!entry) return 0;
    const now = this.clock.now();
    if (entry.blockedUntil <= now && now - entry.lastAt >= this.policy.forgetMs) {
      this.failures.delete(key);
      return 0;
    }
    return Math.max(0, entry.blockedUntil - now);
  }

  failed(key: string): void {
    const now = this.clock.now();
    const { freeFailures, firstDelayMs, lockoutFailures, lockoutMs, forgetMs, maxKeys } = this.policy;
    const before = this.failures.get(key);
    const count = before && now - before.lastAt < forgetMs ? before.count + 1 : 1;
    let blockedUntil = now;
    if (count >= lockoutFailures) blockedUntil = now + lockoutMs;
    else if (count > freeFailures) blockedUntil = now + firstDelayMs * 2 ** (count - freeFailures - 1);
    // Re-inserting keeps the Map in order of the last failure: the first key is the stalest.
    this.failures.delete(key);
    if (this.failures.size >= maxKeys) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(key, { count, lastAt: now, blockedUntil });
  }

  succeeded(key: string): void {
    this.failures.delete(key);
  }

  /** Keys remembered now. */
  get size(): number {
    return this.failures.size;
  }
}
