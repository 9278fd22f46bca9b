/** Thrown when a Semaphore's queue is full: the caller should refuse the work rather than wait. */
export class SemaphoreFull extends Error {
  constructor() {
    super('too much work is waiting');
    this.name = 'SemaphoreFull';
  }
}

/** Runs at most `limit` tasks at once; at most `maxWaiting` more wait their turn, in order. */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    readonly maxWaiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) throw new SemaphoreFull();
      // The finishing task hands its place over, so `running` is not decremented in between.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }
}
