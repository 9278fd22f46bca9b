import type { Store } from '../store/store.js';
import { ManualClock } from '../domain/clock.js';
import { advanceManualClock, ensureManualClock, readManualClock } from '../store/repositories/manual-clock.js';

/**
 * The manual clock lives in the store, so every process sharing it (and a restarted one)
 * reads the same time; it only ever moves forward.
 */
export async function loadManualClock(store: Store): Promise<ManualClock> {
  return new ManualClock(await ensureManualClock(store.db, Date.now()));
}

export async function saveManualClock(store: Store, clock: ManualClock): Promise<void> {
  await advanceManualClock(store.db, clock.now());
}

/** Catches up with a time another process set. */
export async function syncManualClock(store: Store, clock: ManualClock): Promise<void> {
  const now = await readManualClock(store.db);
  if (now !== undefined) clock.set(now);
}
