import type { Store } from '../store/store.js';
import { deleteExpiredEntries } from '../store/repositories/allow-list.js';
import { deleteExpiredChaosRules } from '../store/repositories/chaos-rules.js';
import { pruneEvents } from '../store/repositories/events.js';
import { pruneDeliveries } from '../store/repositories/webhooks.js';
import { pruneFinishedOperations } from '../store/repositories/operations.js';
import { pruneScheduleRuns } from '../store/repositories/schedules.js';
import { purgeExpiredIdempotencyKeys } from '../domain/idempotency.js';
import type { Clock } from '../domain/clock.js';

/** How often (engine clock) a pruning pass runs. */
const PRUNE_EVERY = 60_000;

export interface Retention {
  /** Events older than this are pruned (ACACIA_EVENT_RETENTION_HOURS). */
  eventRetentionMs: number;
  /** Finished operations and fired schedule runs older than this are pruned (ACACIA_OPERATION_RETENTION_HOURS). */
  operationRetentionMs: number;
}

/**
 * Removes what has stopped applying by time alone, at most once a minute of the engine clock:
 * expired allow-list entries and chaos rules (reads already filter them by time), kept
 * idempotent responses past their 24 hours, events and their webhook deliveries past their
 * retention, and finished operations and past schedule runs past theirs. Each is an indexed delete by time.
 */
export class Pruner {
  private lastPrune = -Infinity;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly retention: Retention,
  ) {}

  /** Whether a pass is due: kept by time alone, so the store's due times do not show it. */
  periodicDue(now: number): boolean {
    return now - this.lastPrune >= PRUNE_EVERY;
  }

  /** Prunes when due; removing records is no progress of the engine's work, so it counts 0. */
  async tick(): Promise<number> {
    const now = this.clock.now();
    if (!this.periodicDue(now)) return 0;
    this.lastPrune = now;
    const db = this.store.db;
    await deleteExpiredEntries(db, now);
    await deleteExpiredChaosRules(db, now);
    await purgeExpiredIdempotencyKeys(db, now);
    await pruneEvents(db, now - this.retention.eventRetentionMs);
    // Webhook deliveries go with their events.
    await pruneDeliveries(db, now - this.retention.eventRetentionMs);
    // Neither is ever finished with otherwise: GET /operations would list every one ever run.
    const before = now - this.retention.operationRetentionMs;
    await pruneScheduleRuns(db, before);
    await pruneFinishedOperations(db, before);
    return 0;
  }
}
