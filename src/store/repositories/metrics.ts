import type { Executor } from '../store.js';

/** Counting stops here: a scrape costs at most this many index entries, however long the queue. */
export const QUEUE_COUNT_CAP = 10_000;

export interface QueueStats {
  /** Operations pending or running, up to QUEUE_COUNT_CAP. */
  depth: number;
  /** How long the longest-waiting operation that is due now has waited (ms); 0 when none is. */
  oldestDueAgeMs: number;
}

/** The operations queue as the engine sees it, from the (state, run_at) index. */
export async function operationQueue(db: Executor, now: number): Promise<QueueStats> {
  const depth = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('operations')
        .select('id')
        .where('state', 'in', ['pending', 'running'])
        .limit(QUEUE_COUNT_CAP)
        .as('q'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const oldest = await db
    .selectFrom('operations')
    .select((eb) => eb.fn.min('run_at').as('run_at'))
    .where('state', '=', 'pending')
    .where('run_at', '<=', now)
    .executeTakeFirst();
  const dueAt = oldest?.run_at == null ? undefined : Number(oldest.run_at);
  return { depth: Number(depth.n), oldestDueAgeMs: dueAt === undefined ? 0 : Math.max(0, now - dueAt) };
}

/** How many workspaces are in each status. */
export async function workspacesByStatus(db: Executor): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('workspaces')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
