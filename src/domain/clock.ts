/** The single source of time for the domain and the engine. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to; ACACIA_CLOCK=manual uses it. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: number = Date.now()) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }

  /** Sets the time; it never goes backwards, so ordering of recorded events stays sound. */
  set(ms: number): void {
    this.current = Math.max(this.current, ms);
  }
}
