import { DateTime, IANAZone } from 'luxon';

export interface MaintenanceWindow {
  dayOfWeek: number; // 0 = Sunday
  hourOfDay: number;
  intervalWeeks: number;
  timeZone: string;
}

export const isTimeZone = (zone: string) => IANAZone.isValidZone(zone);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Start of the next one-hour maintenance window at or after `now` (now itself when inside
 * a window). With `last`, windows closer than intervalWeeks to it are skipped. Local wall
 * time in the window's zone; an hour that does not exist on a DST day moves forward.
 */
export function nextWindowStart(now: number, w: MaintenanceWindow, last?: number | null): number {
  const earliest = last ? last + w.intervalWeeks * 7 * DAY - DAY : -Infinity;
  const day = DateTime.fromMillis(now, { zone: w.timeZone }).startOf('day');
  for (let d = 0; d <= 7 * (w.intervalWeeks + 1); d++) {
    const candidate = day.plus({ days: d }).set({ hour: w.hourOfDay });
    if (candidate.weekday % 7 !== w.dayOfWeek) continue;
    const start = candidate.toMillis();
    if (start + HOUR <= now || start < earliest) continue;
    return Math.max(start, now);
  }
  // Unreachable for valid windows: a matching weekday occurs every 7 days.
  return now + 7 * DAY;
}
