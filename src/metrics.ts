import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from './domain/clock.js';
import type { EngineObserver } from './engine/observer.js';
import { operationQueue, workspacesByStatus } from './store/repositories/metrics.js';
import type { Store } from './store/store.js';
import { statementsRun } from './store/statement-tally.js';

/** The process's metrics beyond HTTP's (src/http/metrics.ts adds those to the same registry). */
export interface ProcessMetrics {
  registry: Registry;
  engine: EngineObserver;
  /** The gateway answered a request with this status after this long. */
  gatewayAnswered(status: number, seconds: number): void;
}

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** What a gateway answer means for whoever watches the data plane. */
export function gatewayOutcome(status: number): string {
  if (status < 400) return 'served';
  const named: Record<number, string> = {
    401: 'unauthenticated',
    403: 'forbidden',
    404: 'not-found',
    429: 'throttled',
    503: 'unavailable',
  };
  return named[status] ?? (status < 500 ? 'bad-request' : 'error');
}

export function processMetrics(store: Store, clock: Clock): ProcessMetrics {
  const registry = new Registry();
  const tick = new Histogram({
    name: 'acacia_engine_tick_duration_seconds',
    help: 'Time one engine pass over everything due took',
    buckets: SECONDS,
    registers: [registry],
  });
  const finished = new Counter({
    name: 'acacia_operations_finished_total',
    help: 'Operations ended by this process, by kind and outcome',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const runs = new Counter({
    name: 'acacia_schedule_runs_total',
    help: 'Schedule firings by this process: the action started or skipped',
    labelNames: ['schedule', 'outcome'],
    registers: [registry],
  });
  new Counter({
    name: 'acacia_store_statements_total',
    help: 'Statements this process ran on the store (BEGIN and COMMIT included)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(statementsRun());
    },
  });
  const gatewayRequests = new Counter({
    name: 'acacia_gateway_requests_total',
    help: 'Data-plane gateway requests by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const gatewayLatency = new Histogram({
    name: 'acacia_gateway_request_duration_seconds',
    help: 'Data-plane gateway latency by outcome',
    labelNames: ['outcome'],
    buckets: SECONDS,
    registers: [registry],
  });

  // Read from the store when scraped: one capped count and two indexed reads. Scrapes that
  // overlap share one reading, so a burst of them costs the store no more than one; a store
  // that cannot answer leaves the last values, and the scrape itself still succeeds.
  let reading: Promise<void> | undefined;
  const refresh = () =>
    (reading ??= read()
      .catch(() => undefined)
      .finally(() => (reading = undefined)));
  const queueDepth = new Gauge({
    name: 'acacia_operations_queue_depth',
    help: 'Operations pending or running in the store (counted up to 10000)',
    registers: [registry],
    collect: refresh,
  });
  const oldestDue = new Gauge({
    name: 'acacia_operations_oldest_due_age_seconds',
    help: 'How long the longest-waiting due operation has waited for the engine',
    registers: [registry],
    collect: refresh,
  });
  const byStatus = new Gauge({
    name: 'acacia_workspaces',
    help: 'Workspaces in the store by status',
    labelNames: ['status'],
    registers: [registry],
    collect: refresh,
  });
  async function read() {
    const queue = await operationQueue(store.db, clock.now());
    const statuses = await workspacesByStatus(store.db);
    queueDepth.set(queue.depth);
    oldestDue.set(queue.oldestDueAgeMs / 1000);
    byStatus.reset();
    for (const [status, n] of Object.entries(statuses)) byStatus.set({ status }, n);
  }

  return {
    registry,
    engine: {
      tickFinished: (seconds) => tick.observe(seconds),
      operationFinished: (kind, outcome) => finished.inc({ kind, outcome }),
      scheduleRun: (schedule, outcome) => runs.inc({ schedule, outcome }),
    },
    gatewayAnswered(status, seconds) {
      const outcome = gatewayOutcome(status);
      gatewayRequests.inc({ outcome });
      gatewayLatency.observe({ outcome }, seconds);
    },
  };
}
