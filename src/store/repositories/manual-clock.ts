import type { Executor } from '../store.js';

/** The one row of the manual clock, made at `now` when there is none yet; returns its time. */
export async function ensureManualClock(db: Executor, now: number): Promise<number> {
  await db
    .insertInto('manual_clock')
    .values({ id: 1, now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return (await readManualClock(db))!;
}

export async function readManualClock(db: Executor): Promise<number | undefined> {
  const row = await db.selectFrom('manual_clock').select('now').where('id', '=', 1).executeTakeFirst();
  return row && Number(row.now);
}

/** Moves the stored time forward to `now`; never back. */
export async function advanceManualClock(db: Executor, now: number): Promise<void> {
  await db.updateTable('manual_clock').set({ now }).where('id', '=', 1).where('now', '<', now).execute();
}
