import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { GraphStore } from './graph-store.js';

/** SQLite's own threshold: a commit that leaves the log over this many pages checkpoints it. */
const SQLITE_DEFAULT_PAGES = 1000;
/**
 * The writer's threshold while checkpoints run in the background (64 MiB of 4 KiB pages): kept,
 * so that the log stays bounded when the thread falls far behind.
 */
const BACKSTOP_PAGES = 16_384;
/**
 * A thread starts once the log file has reached SQLite's own threshold (1,000 pages of 4 KiB):
 * a workspace that writes little never needs one, as SQLite would not have checkpointed yet.
 */
const START_BYTES = SQLITE_DEFAULT_PAGES * 4096;
/** A thread with no commit to follow for this long ends; the next commit starts another. */
const IDLE_MS = 30_000;

/**
 * The thread's whole program: a connection of its own to the store file, a PASSIVE checkpoint
 * each time it is asked, answered when done, until it is told to close. Plain JavaScript, run
 * without the process's loader flags, so that starting a thread costs about 0.1 s of CPU from
 * the sources as from the build.
 */
const THREAD_PROGRAM = `
const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
const { parentPort, workerData } = require('node:worker_threads');
const db = new Database(workerData.file, { fileMustExist: true });
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (err) {
    parentPort.postMessage({ ok: false, message: String(err && err.message) });
  }
});
`;

/**
 * Checkpoints of a store's write-ahead log in a thread of their own. SQLite checkpoints when a
 * commit leaves the log over 1,000 pages, in the thread that committed: a write of many rows
 * then waits while its pages are copied into the database file, and a load of many requests
 * copies again pages every request changes. Here each commit asks the thread for a PASSIVE
 * checkpoint (which copies what no reader still needs and waits for no one), while the process
 * goes on serving; commits made while one runs are taken by the next, one for all of them.
 *
 * The thread (an isolate of its own, about 9 MiB) runs only while writes come: it starts at a
 * commit once the log has grown to START_BYTES and ends after IDLE_MS without one, so a
 * workspace that is only read, or written a little, keeps none. If it fails, the writer
 * checkpoints for itself again, as SQLite's default has it.
 */
export class BackgroundCheckpoints {
  private worker: Worker | undefined;
  private running = false;
  private asked = false;
  private failed = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];

  private constructor(private readonly store: GraphStore) {}

  /** Makes every commit of `store` ask for a checkpoint in the background. */
  static attach(store: GraphStore): BackgroundCheckpoints {
    const checkpoints = new BackgroundCheckpoints(store);
    store.db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    store.afterCommit = () => checkpoints.committed();
    return checkpoints;
  }

  /** Whether a thread is running now. */
  get threadRunning(): boolean {
    return this.worker !== undefined;
  }

  /** A commit happened: a checkpoint starts now, or after the one running. */
  committed(): void {
    if (this.failed || (this.worker === undefined && this.logBytes() < START_BYTES)) return;
    clearTimeout(this.idleTimer);
    if (this.running) {
      this.asked = true;
      return;
    }
    this.running = true;
    this.worker ??= this.spawn();
    // A checkpoint under way keeps the process up; an idle thread does not.
    this.worker.ref();
    this.worker.postMessage('checkpoint');
  }

  /** Resolves once no checkpoint runs or waits to. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Waits for the checkpoint running, if one is, and ends the thread; commits checkpoint for themselves again. */
  async close(): Promise<void> {
    this.asked = false;
    await this.idle();
    this.fallBack();
    await this.retire();
  }

  private spawn(): Worker {
    const worker = new Worker(THREAD_PROGRAM, { eval: true, execArgv: [], workerData: { file: this.store.db.name } });
    worker.on('message', (answer: { ok: boolean }) => {
      this.running = false;
      if (!answer.ok) {
        this.fallBack();
        void this.retire();
      }
      if (this.asked && !this.failed) {
        this.asked = false;
        this.committed();
        return;
      }
      this.asked = false;
      worker.unref();
      this.settle();
      if (this.worker === worker) this.idleTimer = setTimeout(() => void this.retire(), IDLE_MS).unref();
    });
    worker.on('error', () => {
      // The thread is ending: an uncaught error (a store it cannot open) ends it.
      if (this.worker === worker) this.worker = undefined;
      this.fallBack();
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      // Ended without being asked to: whatever it was doing is not coming back.
      this.worker = undefined;
      this.fallBack();
    });
    return worker;
  }

  /** The size of the log file: it grows until a checkpoint lets SQLite write it from its start again. */
  private logBytes(): number {
    return fs.statSync(`${this.store.db.name}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  }

  /** Ends the thread, if one runs; the next commit starts another. */
  private async retire(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = once(worker, 'exit');
    worker.ref();
    worker.postMessage('close');
    await exited;
  }

  /** No more checkpoints here: the writer checkpoints for itself, as SQLite's default has it. */
  private fallBack(): void {
    if (this.failed) return;
    this.failed = true;
    this.running = false;
    this.asked = false;
    this.store.afterCommit = undefined;
    if (this.store.db.open) this.store.db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
    this.settle();
  }

  private settle(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
