import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Catalog } from '../domain/catalog.js';
import type { Store } from '../store/store.js';
import { leasesHeldElsewhere, nextOperationDueAt } from '../store/repositories/operations.js';
import { earliestDueAt } from '../store/repositories/engine-probe.js';
import { BackupScheduler } from './backup-scheduler.js';
import { ManualClock, type Clock } from '../domain/clock.js';
import type { Drivers } from './drivers/driver.js';
import { allKinds } from './kinds/index.js';
import { observeKinds, type EngineObserver } from './observer.js';
import { Meter } from './meter.js';
import { Pruner } from './pruner.js';
import { Reconciler } from './reconciler.js';
import { Scheduler } from './scheduler.js';
import { saveManualClock, syncManualClock } from './shared-clock.js';
import { Worker } from './worker.js';
import { WebhookDeliverer } from './webhook-deliverer.js';
import { WorkgroupExpirer } from './workgroup-expirer.js';
import { PoolKeeper, type PoolRefill } from './pool-keeper.js';
import type { WebhookSettings } from '../domain/webhooks.js';
import { resolveByDns } from '../domain/webhook-targets.js';

export interface EngineOptions {
  store: Store;
  clock: Clock;
  /** The provisioner drivers (ACACIA_DRIVER), fault injection applied. */
  drivers: Drivers;
  /** Sizes and tier limits the engine applies (specs, scheduled resizes, automatic backups kept). */
  catalog: Catalog;
  logger: Logger;
  /** ACACIA_RETRY_BACKOFF: the wait before the first retry of a failed step; it doubles, up to 30 times it. */
  retryBackoffMs: number;
  pollMs?: number;
  leaseMs?: number;
  /** How often (engine clock) the reconciler asks the workspace driver whether Active workspaces still run. */
  observeMs?: number;
  /** Told of ticks, finished operations and schedule runs (the metrics). */
  observer?: EngineObserver;
  /** How long events are kept (ACACIA_EVENT_RETENTION_HOURS; default 168 hours). */
  eventRetentionMs?: number;
  /** How long finished operations and past schedule runs are kept (ACACIA_OPERATION_RETENTION_HOURS; 720 hours). */
  operationRetentionMs?: number;
  /** Whether webhooks may reach private addresses, and the key their secrets derive from. */
  webhooks?: WebhookSettings;
  /** The workgroup pool to keep filled (ACACIA_POOL_SIZE); none when absent. */
  pool?: PoolRefill;
}

/** A bound on work done in one call, so a bug cannot spin forever. */
const MAX_ROUNDS = 10_000;
/** How long (real time) an unchanged lease of another process is waited on before it is taken for dead. */
const SETTLE_MS = 5_000;
/** A bound on one wait for other processes, however busy they keep. */
const MAX_SETTLE_MS = 60_000;

/**
 * The background engine of one process: the operations worker, the schedulers (workspace
 * and backup), the reconciler, the pruner, the webhook deliverer, the workgroup expirer, the
 * meter and the pool keeper, polled on an interval and woken at once when the API enqueues work.
 */
export class Engine {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly worker: Worker;
  private readonly reconciler: Reconciler;
  private readonly pruner: Pruner;
  private readonly scheduler: Scheduler;
  private readonly backupScheduler: BackupScheduler;
  private readonly deliverer: WebhookDeliverer;
  private readonly expirer: WorkgroupExpirer;
  private readonly meter: Meter;
  private readonly poolKeeper?: PoolKeeper;
  private readonly parts: ReadonlyArray<readonly [string, { tick(): Promise<number> }]>;
  private readonly pollMs: number;
  private loop?: Promise<void>;
  private stopped = false;
  private wakeUp?: () => void;
  private woken = false;
  private tail: Promise<unknown> = Promise.resolve();
  /** Aborted by stop(): steps in flight and the reconciler's looks are told to stop. */
  private readonly stopping = new AbortController();
  /** When this process first saw each lease another process holds (wall time; see settle). */
  private readonly leasesSeen = new Map<string, number>();

  constructor(private readonly options: EngineOptions) {
    const { store, clock, drivers, catalog, logger, retryBackoffMs } = options;
    this.pollMs = options.pollMs ?? 250;
    const observer = options.observer;
    const backoffMs = (attempt: number) => Math.min(retryBackoffMs * 2 ** (attempt - 1), retryBackoffMs * 30);
    this.worker = new Worker(
      store,
      clock,
      observeKinds(allKinds({ store, drivers, catalog }), observer),
      logger,
      {
        owner: this.owner,
        leaseMs: options.leaseMs ?? 30_000,
        batch: 20,
        backoffMs,
      },
      this.stopping.signal,
    );
    this.reconciler = new Reconciler(store, clock, logger, {
      workspaces: drivers.workspace,
      catalog,
      observeMs: options.observeMs ?? 30_000,
      signal: this.stopping.signal,
    });
    this.pruner = new Pruner(store, clock, {
      eventRetentionMs: options.eventRetentionMs ?? 168 * 3_600_000,
      operationRetentionMs: options.operationRetentionMs ?? 720 * 3_600_000,
    });
    this.scheduler = new Scheduler(store, clock, catalog, logger, (outcome) =>
      observer?.scheduleRun('workspace', outcome),
    );
    this.backupScheduler = new BackupScheduler(store, clock, catalog, logger, (outcome) =>
      observer?.scheduleRun('backup', outcome),
    );
    this.deliverer = new WebhookDeliverer(
      store,
      clock,
      logger,
      {
        owner: this.owner,
        leaseMs: options.leaseMs ?? 30_000,
        senders: 16,
        perOrganisation: 4,
        backoffMs,
        timeoutMs: 10_000,
        allowPrivate: options.webhooks?.allowPrivate ?? false,
        resolve: options.webhooks?.resolve ?? resolveByDns,
        key:
          options.webhooks?.key ??
          (() => {
            throw new Error('no webhook key is configured');
          }),
      },
      this.stopping.signal,
    );
    this.expirer = new WorkgroupExpirer(store, clock, logger);
    this.meter = new Meter(store, clock, catalog, logger, this.owner);
    if (options.pool) this.poolKeeper = new PoolKeeper(options.pool, clock);
    this.parts = [
      ['workgroup expirer', this.expirer],
      ...(this.poolKeeper ? [['pool keeper', this.poolKeeper] as const] : []),
      ['scheduler', this.scheduler],
      ['backup scheduler', this.backupScheduler],
      ['meter', this.meter],
      ['worker', this.worker],
      ['pruner', this.pruner],
      ['reconciler', this.reconciler],
      ['webhook deliverer', this.deliverer],
    ];
  }

  get running(): boolean {
    return this.loop !== undefined && !this.stopped;
  }

  start(): void {
    if (this.loop) return;
    this.loop = (async () => {
      while (!this.stopped) {
        try {
          await this.drain();
        } catch (err) {
          this.options.logger.error({ err }, 'engine tick failed');
        }
        await this.sleep();
      }
    })();
  }

  /** A driver saw a runtime stop by itself: observe (and recover) now rather than at the next interval. */
  runtimeLost(): void {
    this.reconciler.observeSoon();
    this.wake();
  }

  /** A pooled workgroup was handed over: refill the pool now rather than at the next check. */
  refillPool(): void {
    this.poolKeeper?.refillSoon();
    this.wake();
  }

  /** Work was enqueued: run it now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.wakeUp?.();
    await this.loop;
    await this.tail;
    await this.deliverer.idle();
  }

  /**
   * Runs `fn` between ticks, no part of the engine running meanwhile: a reset or a snapshot's
   * load replaces the state the parts work on. Afterwards the reconciler looks at every
   * workspace at once, so what the new state says runs is started again.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    // Deliveries are sent beside the ticks: wait for those under way too.
    const run = this.tail.then(async () => {
      await this.deliverer.idle();
      return fn();
    });
    this.tail = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      // The new state may hold another pool than the one kept: count it again.
      this.poolKeeper?.refillSoon();
      this.runtimeLost();
    }
  }

  /** One pass over everything due now; ticks never overlap within a process. */
  tick(): Promise<number> {
    const run = this.tail.then(async () => {
      const started = performance.now();
      const clock = this.options.clock;
      if (clock instanceof ManualClock) await syncManualClock(this.options.store, clock);
      let done = 0;
      // An idle tick costs one probe; the parts (and the worker's claiming transaction) run
      // only when something is due.
      if (!(await this.anythingDue())) {
        this.options.observer?.tickFinished((performance.now() - started) / 1000);
        return 0;
      }
      // Each part on its own: one that keeps failing must not starve the others.
      for (const [name, part] of this.parts) {
        try {
          done += await part.tick();
        } catch (err) {
          this.options.logger.error({ err, part: name }, 'engine tick failed');
        }
      }
      this.options.observer?.tickFinished((performance.now() - started) / 1000);
      return done;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Whether any part has work now: one statement, unless a time-kept pass is due anyway. */
  private async anythingDue(): Promise<boolean> {
    const now = this.options.clock.now();
    if (this.pruner.periodicDue(now) || this.reconciler.periodicDue(now) || this.meter.periodicDue(now)) return true;
    if (this.pruner.periodicDue(now) || this.reconciler.periodicDue(now)) return true;
    if (this.poolKeeper?.periodicDue(now)) return true;
    const at = await earliestDueAt(this.options.store.db);
    return at !== undefined && at <= now;
  }

  /** Ticks until nothing more is due now. */
  async drain(): Promise<void> {
    for (let i = 0; i < MAX_ROUNDS && (await this.tick()) > 0; i++);
  }

  /**
   * Manual clock only: moves time to `target`, stopping at every instant where something
   * becomes due on the way, so each event runs at its own time and in order.
   */
  async advanceTo(target: number): Promise<void> {
    const clock = this.options.clock;
    if (!(clock instanceof ManualClock)) throw new Error('advanceTo needs the manual clock');
    await this.settle();
    for (let i = 0; i < MAX_ROUNDS; i++) {
      const next = await this.nextDueAt(clock.now());
      if (next === undefined || next > target) break;
      clock.set(next);
      await saveManualClock(this.options.store, clock);
      await this.settle();
    }
    clock.set(target);
    await saveManualClock(this.options.store, clock);
    await this.settle();
  }

  /**
   * Drains, then waits while another process runs operations under a live lease: moving the
   * shared clock past their lease expiry would hand them over mid-step. A lease held
   * unchanged for SETTLE_MS of real time is taken for a dead process's and no longer waited
   * on, so the clock moves on and reclaims its work; a live process keeps taking new leases
   * (each step is a new claim), so it is waited for however slow the machine is.
   */
  private async settle(): Promise<void> {
    const giveUp = Date.now() + MAX_SETTLE_MS;
    for (;;) {
      // Webhook sends run beside the ticks: a moved clock settles once they are done too.
      do {
        await this.drain();
        await this.deliverer.idle();
      } while (this.deliverer.busy || (await this.tick()) > 0);
      const held = await leasesHeldElsewhere(this.options.store.db, this.owner, this.options.clock.now());
      const now = Date.now();
      for (const lease of this.leasesSeen.keys()) if (!held.includes(lease)) this.leasesSeen.delete(lease);
      for (const lease of held) if (!this.leasesSeen.has(lease)) this.leasesSeen.set(lease, now);
      const live = held.filter((lease) => now - this.leasesSeen.get(lease)! < SETTLE_MS);
      if (live.length === 0 || now > giveUp) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * Manual clock only: moves time to `target` at once, as if the process had been down
   * meanwhile, then runs what is due (late work is handled as late, e.g. the schedule grace rule).
   */
  async jumpTo(target: number): Promise<void> {
    const clock = this.options.clock;
    if (!(clock instanceof ManualClock)) throw new Error('jumpTo needs the manual clock');
    clock.set(target);
    await saveManualClock(this.options.store, clock);
    await this.drain();
  }

  /** The earliest instant after `after` at which something becomes due. */
  async nextDueAt(after: number): Promise<number | undefined> {
    const times = [
      await nextOperationDueAt(this.options.store.db, after),
      await this.scheduler.nextDueAt(after),
      await this.reconciler.nextDueAt(after),
      await this.backupScheduler.nextDueAt(after),
      await this.deliverer.nextDueAt(after),
      await this.expirer.nextDueAt(after),
      await this.meter.nextDueAt(after),
    ].filter((t): t is number => t !== undefined);
    return times.length ? Math.min(...times) : undefined;
  }

  private sleep(): Promise<void> {
    if (this.woken || this.stopped) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    }).then(() => {
      this.woken = false;
    });
  }
}
