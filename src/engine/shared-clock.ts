import type { Store } from '../store/store.js';
import { ManualClock } from '../domain/clock.js';

/**
 * The manual clock lives in the store, so every process sharing it (and a restarted one)
 * reads the same time; it only ever moves forward.
 */
export async function loadManualClock(store: Store): Promise<ManualClock> {
  await store.db.insertInto('manual_clock').values({ id: 1, now: Date.now() }).onConflict((oc) => oc.column('id').doNothing()).execute();
  const row = await store.db.selectFrom('manual_clock').select('now').where('id', '=', 1).executeTakeFirstOrThrow();
  return new ManualClock(Number(row.now));
}

export async function saveManualClock(store: Store, clock: ManualClock): Promise<void> {
  await store.db.updateTable('manual_clock').set({ now: clock.now() }).where('id', '=', 1).where('now', '<', clock.now()).execute();
}

/** Catches up with a time another process set. */
export async function syncManualClock(store: Store, clock: ManualClock): Promise<void> {
  const row = await store.db.selectFrom('manual_clock').select('now').where('id', '=', 1).executeTakeFirst();
  if (row) clock.set(Number(row.now));
}
