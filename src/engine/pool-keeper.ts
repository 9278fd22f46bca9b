import type { Clock } from '../domain/clock.js';

/** What the keeper asks of the domain: bring the pool to its size, returning how much it changed. */
export interface PoolRefill {
  refill(): Promise<number>;
}

/** How often (engine clock) the pool is counted when nothing asked: members another process handed over, or failed. */
const CHECK_MS = 30_000;

/**
 * Keeps the workgroup pool at its size (docs/pooled-workgroups.md): on the first tick, when an
 * acquisition or a reset asks, and every 30 s of the clock. The refill itself counts and
 * creates under the pool organisation's lock, so any number of processes may run it at once
 * and the pool never holds more than its size; this part only decides when to ask.
 */
export class PoolKeeper {
  private lastCheck = -Infinity;
  private asked = true;

  constructor(
    private readonly pool: PoolRefill,
    private readonly clock: Clock,
  ) {}

  /** A member was handed over or the state replaced: refill at the next tick. */
  refillSoon(): void {
    this.asked = true;
  }

  periodicDue(now: number): boolean {
    return this.asked || now - this.lastCheck >= CHECK_MS;
  }

  async tick(): Promise<number> {
    const now = this.clock.now();
    if (!this.periodicDue(now)) return 0;
    this.asked = false;
    this.lastCheck = now;
    return this.pool.refill();
  }
}
