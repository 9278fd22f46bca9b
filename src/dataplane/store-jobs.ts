import { Worker } from 'node:worker_threads';
import type { StoreStats } from './snapshot.js';
import type { StoreJob, StoreJobResults } from './store-jobs-run.js';

/** A job's failure, as the worker thread saw it: the error's name, message and SQLite code. */
export class StoreJobError extends Error {
  constructor(
    name: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = name;
  }
}

type Answer = { ok: true; value: unknown } | { ok: false; error: { name: string; message: string; code?: string } };

interface Pending {
  job: StoreJob;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  current?: Pending;
}

/**
 * A worker thread running `store-jobs-worker`: the compiled file with plain node, or the
 * TypeScript source through tsx's loader when this module itself runs from the sources.
 */
function newWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./store-jobs-worker.js', here), { execArgv: [] });
  const file = JSON.stringify(new URL('./store-jobs-worker.ts', here).href);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then((api) => api.tsImport(${file}, ${JSON.stringify(here)}))`, {
    eval: true,
    execArgv: [],
  });
}

/**
 * Work on store files whose cost grows with the graph — snapshots (`VACUUM INTO`), restores,
 * counts — and work that may wait for a store's write lock, run in worker threads so that the
 * calling thread's event loop (the API's, the gateway's, the engine's) goes on meanwhile. At
 * most `maxWorkers` jobs run at once, each on a thread of its own; the others wait their turn
 * in order. A thread is started at the first job that finds none free and kept for the next;
 * an idle one does not keep the process alive.
 */
export class StoreJobs {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private closed = false;

  constructor(private readonly maxWorkers = 2) {}

  /** Creates an empty store file when there is none; gives back its name. */
  ensure(file: string): Promise<string> {
    return this.run({ kind: 'ensure', file });
  }

  /** `snapshotStore`: a consistent copy of a live store file, never over an existing file. */
  snapshot(storeFile: string, snapshotFile: string): Promise<{ size_bytes: number }> {
    return this.run({ kind: 'snapshot', storeFile, snapshotFile });
  }

  /** `restoreStore`: a store's whole content replaced by a snapshot's, in one transaction. */
  restore(snapshotFile: string, storeFile: string): Promise<void> {
    return this.run({ kind: 'restore', snapshotFile, storeFile });
  }

  /** `readStoreStats`: the counts and sizes of a store file, from a connection of its own. */
  stats(file: string): Promise<StoreStats> {
    return this.run({ kind: 'stats', file });
  }

  /** Removes the partial copies that crashed copies left in these folders; gives back how many. */
  sweep(dirs: string[]): Promise<number> {
    return this.run({ kind: 'sweep', dirs });
  }

  /** Stops the threads; a job still running or waiting is refused (its file work is crash-safe). */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the store jobs were closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private run<K extends StoreJob['kind']>(job: Extract<StoreJob, { kind: K }>): Promise<StoreJobResults[K]> {
    if (this.closed) return Promise.reject(new Error('the store jobs were closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (value: unknown) => void, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      const slot =
        this.slots.find((s) => !s.current) ?? (this.slots.length < this.maxWorkers ? this.start() : undefined);
      if (!slot) return;
      slot.current = this.queue.shift()!;
      slot.worker.ref();
      slot.worker.postMessage(slot.current.job);
    }
  }

  private start(): Slot {
    const slot: Slot = { worker: newWorker() };
    const { worker } = slot;
    worker.unref();
    worker.on('message', (answer: Answer) => {
      const pending = slot.current;
      slot.current = undefined;
      worker.unref();
      if (answer.ok) pending?.resolve(answer.value);
      else pending?.reject(new StoreJobError(answer.error.name, answer.error.message, answer.error.code));
      this.dispatch();
    });
    // A thread that failed or exited takes its job with it; the next job starts another.
    const lost = (err: Error) => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return;
      this.slots.splice(at, 1);
      slot.current?.reject(err);
      slot.current = undefined;
      this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the store jobs' worker thread exited (code ${code})`)));
    this.slots.push(slot);
    return slot;
  }
}
