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
  /** Attempts of one key that may wait for its attempts in flight; past it they are held back. */
  maxWaiting: number;
}

export const defaultThrottlePolicy: ThrottlePolicy = {
  freeFailures: 5,
  firstDelayMs: 1000,
  lockoutFailures: 10,
  lockoutMs: 15 * 60_000,
  // Longer than the lockout, so the failure after a lockout locks again at once.
  forgetMs: 60 * 60_000,
  maxKeys: 10_000,
  maxWaiting: 64,
};

interface Failures {
  count: number;
  lastAt: number;
  blockedUntil: number;
}

/** An attempt the throttle let through: told its outcome once it is known. */
export interface Attempt {
  succeeded(): void;
  failed(): void;
  /** Neither (the check itself could not be made): counts for nothing. */
  abandoned(): void;
}

/** Attempts of one key being checked now, and those waiting for them to end. */
interface InFlight {
  count: number;
  waiting: Array<() => void>;
}

/**
 * Failed-login counts per key (the gateway's: client and database user), in memory, bounded, on the injectable clock.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, Failures>();
  /** Only keys with attempts in flight, so bounded by the requests being served. */
  private readonly inFlight = new Map<string, InFlight>();

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

  /**
   * Lets an attempt of `key` be checked, or says how long it must wait (`{ waitMs }`). An
   * attempt in flight counts as a failure until it ends: while the free failures left are all
   * spoken for, a new attempt waits for one to end, then is judged on what it came to. So
   * sixty guesses sent at once cost what sixty sent one after another do, not sixty checks.
   */
  async admit(key: string): Promise<Attempt | { waitMs: number }> {
    for (;;) {
      const waitMs = this.waitMs(key);
      if (waitMs > 0) return { waitMs };
      const flying = this.inFlight.get(key) ?? { count: 0, waiting: [] };
      const failures = this.failures.get(key)?.count ?? 0;
      if (flying.count === 0 || failures + flying.count < this.policy.freeFailures) {
        flying.count++;
        this.inFlight.set(key, flying);
        return this.attempt(key, flying);
      }
      if (flying.waiting.length >= this.policy.maxWaiting) return { waitMs: this.policy.firstDelayMs };
      await new Promise<void>((resolve) => flying.waiting.push(resolve));
    }
  }

  private attempt(key: string, flying: InFlight): Attempt {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      flying.count--;
      // Each waiter looks again; those that still may not go wait for the next end.
      const waiting = flying.waiting.splice(0);
      if (flying.count === 0 && this.inFlight.get(key) === flying) this.inFlight.delete(key);
      for (const wake of waiting) wake();
    };
    return {
      succeeded: () => settle(() => this.succeeded(key)),
      failed: () => settle(() => this.failed(key)),
      abandoned: () => settle(() => undefined),
    };
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
