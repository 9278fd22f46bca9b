import { pino } from 'pino';
import { ManualClock } from '../src/domain/clock.js';
import { Engine } from '../src/engine/engine.js';
import { Scheduler } from '../src/engine/scheduler.js';
import { loadConfig } from '../src/config.js';
import { createDrivers } from '../src/engine/drivers/index.js';
import type { Store } from '../src/store/store.js';
import { quotaFreeCatalog } from './quota-free-config.js';
import { quantile, timeCalls } from './stats.js';

/** Milliseconds per tick. */
export interface TickCost {
  /** Scheduler tick with nothing due: the median of the rounds' p50, and the p99 of all ticks. */
  idleP50: number;
  idleP99: number;
  /** Scheduler tick that fires a batch: the median of the rounds, each batch restored before the next. */
  batch: number;
  batchSize: number;
  /** A whole engine tick (schedulers, worker, reconciler) with nothing due: the median of the rounds' p50. */
  engineIdleP50: number;
}

const logger = pino({ level: 'silent' });
const HOUR = 3_600_000;
/**
 * Measurements are taken in rounds spread over a few seconds and summarised by the median
 * round: on a machine shared with other work, a burst of it then moves one round, not the figure.
 */
const ROUNDS = 5;
const pause = () => new Promise((r) => setTimeout(r, 200));

/**
 * Times the scheduler against the store with a manual clock at `now` (every seeded
 * occurrence is later). For the due batch, the given schedules are made due an hour ahead,
 * fired, and then put back as they were (schedule, workspace, run and operation rows), so
 * every round and every size fires the same occurrences on the same state.
 */
export async function measureTicks(store: Store, now: number, batchIds: string[]): Promise<TickCost> {
  // Seeding left garbage in this process's heap; collecting it now keeps its pauses out of the ticks.
  (globalThis as { gc?: () => void }).gc?.();
  const idleClock = new ManualClock(now);
  const scheduler = new Scheduler(store, idleClock, quotaFreeCatalog, logger);
  const engine = new Engine({
    store,
    clock: idleClock,
    drivers: await createDrivers('simulated', {
      config: loadConfig({ ACACIA_SIM_SPEED: '0' }),
      logger,
      store,
      clock: idleClock,
    }),
    catalog: quotaFreeCatalog,
    logger,
    retryBackoffMs: 0,
  });
  const idle: number[][] = [];
  const engineIdle: number[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    idle.push(await timeCalls(200, 20, () => scheduler.tick()));
    engineIdle.push(await timeCalls(50, 5, () => engine.tick()));
    await pause();
  }

  const db = store.db;
  const due = now + HOUR;
  const fireClock = new ManualClock(due + 60_000);
  const firing = new Scheduler(store, fireClock, quotaFreeCatalog, logger);
  const schedules = await db
    .selectFrom('schedules')
    .select(['id', 'workspace_id', 'next_run_at'])
    .where('id', 'in', batchIds)
    .execute();
  const wsIds = schedules.map((s) => s.workspace_id);
  const workspaces = await db.selectFrom('workspaces').selectAll().where('id', 'in', wsIds).execute();
  const batches: number[] = [];
  // The first firing after seeding also pays for cold caches (and on SQLite a WAL checkpoint): untimed.
  for (let r = -1; r < ROUNDS; r++) {
    await db.updateTable('schedules').set({ next_run_at: due }).where('id', 'in', batchIds).execute();
    const t0 = performance.now();
    const fired = await firing.tick();
    if (r >= 0) batches.push(performance.now() - t0);
    if (fired !== batchIds.length) throw new Error(`the scheduler fired ${fired} of ${batchIds.length} due schedules`);
    await db
      .deleteFrom('schedule_runs')
      .where('schedule_id', 'in', batchIds)
      .where('occurrence_at', '=', due)
      .execute();
    await db
      .deleteFrom('operations')
      .where('resource_id', 'in', wsIds)
      .where('created_at', '=', fireClock.now())
      .execute();
    for (const ws of workspaces) await db.updateTable('workspaces').set(ws).where('id', '=', ws.id).execute();
    for (const s of schedules)
      await db.updateTable('schedules').set({ next_run_at: s.next_run_at }).where('id', '=', s.id).execute();
    await pause();
  }
  return {
    idleP50: quantile(
      idle.map((round) => quantile(round, 0.5)),
      0.5,
    ),
    idleP99: quantile(idle.flat(), 0.99),
    batch: quantile(batches, 0.5),
    batchSize: batchIds.length,
    engineIdleP50: quantile(
      engineIdle.map((round) => quantile(round, 0.5)),
      0.5,
    ),
  };
}
