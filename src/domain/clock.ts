/** The single source of time for the domain and the engine. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * The latest time the manual clock may be set to. Acacia derives times up to ten years
 * ahead of now (key expiry; a cron schedule firing only on 29 February may be eight years
 * away), which must stay RFC 3339 (four-digit years), and its cron evaluation looks no
 * further than the year 3000: a century below that, every derived time is sound.
 */
export const LATEST_MANUAL_TIME = Date.UTC(2900, 0, 1);

/** A clock that moves only when told to; ACACIA_CLOCK=manual uses it. */
export class ManualClock implements Clock {
  private current: number;
  private readonly moved = new Set<() => void>();

  constructor(start: number = Date.now()) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.set(this.current + ms);
  }

  /** Sets the time; it never goes backwards, so ordering of recorded events stays sound. */
  set(ms: number): void {
    if (ms <= this.current) return;
    this.current = ms;
    for (const listener of [...this.moved]) listener();
  }

  /**
   * Calls listener each time the clock moves (by this process, or catching up with another's
   * move); returns the unsubscribe. What waits for a time on this clock has no timer to fire it.
   */
  onMove(listener: () => void): () => void {
    this.moved.add(listener);
    return () => this.moved.delete(listener);
  }
}
