import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import { dueSchedules, nextScheduleAt } from '../store/repositories/schedules.js';
import type { Catalog } from '../domain/catalog.js';
import { fireOccurrence } from '../domain/schedule-firing.js';
import type { Clock } from '../domain/clock.js';

const BATCH = 50;

/** Fires due workspace schedules; each occurrence once, across processes and restarts. */
export class Scheduler {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly logger: Logger,
    /** Told of every firing and how it went. */
    private readonly ran: (outcome: 'started' | 'skipped') => void = () => undefined,
  ) {}

  async tick(): Promise<number> {
    const now = this.clock.now();
    let fired = 0;
    for (const s of await dueSchedules(this.store.db, now, BATCH)) {
      const result = await this.store.transaction((trx) => fireOccurrence(trx, this.catalog, s, s.next_run_at!, now));
      if (!result) continue;
      fired++;
      this.ran(result.outcome);
      this.logger.info({ schedule: s.id, workspace: s.workspace_id, action: s.action, ...result }, 'schedule fired');
    }
    return fired;
  }

  nextDueAt(after: number): Promise<number | undefined> {
    return nextScheduleAt(this.store.db, after);
  }
}
