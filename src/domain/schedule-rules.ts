import { DateTime } from 'luxon';
import { isTimeZone } from './maintenance.js';
import type { Problems } from './errors.js';
import type { Repeat } from '../schemas/vocabulary.js';

export { repeats, scheduleActions, type Repeat, type ScheduleAction } from '../schemas/vocabulary.js';

const weekdayNames = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const dayIndex = new Map(weekdayNames.flatMap((name, i) => [[name, i] as const, [name.slice(0, 3), i] as const]));

/** When a schedule runs, in its own time zone. */
export interface ScheduleTiming {
  repeat: Repeat;
  date?: string | null;
  /** Days of the week, 0 = Sunday (weekly only). */
  days?: number[];
  time: string;
  timezone: string;
}

/** `Mon,wed, FRIDAY` → [1, 3, 5]; undefined when a part is not a day name. */
export function parseRepeatOn(text: string): number[] | undefined {
  const days = text.split(',').map((d) => dayIndex.get(d.trim().toLowerCase()));
  if (days.some((d) => d === undefined)) return undefined;
  return [...new Set(days as number[])].sort();
}

export function formatRepeatOn(days: number[]): string {
  return days.map((d) => weekdayNames[d]![0]!.toUpperCase() + weekdayNames[d]!.slice(1, 3)).join(',');
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Adds a problem for each field of the timing that is not valid. */
export function checkTiming(
  problems: Problems,
  t: {
    repeat: Repeat;
    date?: string | null | undefined;
    repeat_on?: string | null | undefined;
    time: string;
    timezone: string;
  },
): void {
  if (!TIME.test(t.time)) problems.add('time', 'must be HH:mm on a 24-hour clock, e.g. 07:30');
  if (!isTimeZone(t.timezone)) problems.add('timezone', `"${t.timezone}" is not an IANA time zone`);
  if (t.repeat === 'once') {
    if (!t.date) problems.add('date', 'is required when repeat is once');
    else if (!DATE.test(t.date) || !DateTime.fromISO(t.date).isValid)
      problems.add('date', 'must be a calendar date YYYY-MM-DD');
  } else if (t.date) problems.add('date', 'applies only when repeat is once');
  if (t.repeat === 'weekly') {
    if (!t.repeat_on) problems.add('repeat_on', 'is required when repeat is weekly');
    else if (!parseRepeatOn(t.repeat_on))
      problems.add('repeat_on', 'must be comma-separated days: Sun,Mon,Tue,Wed,Thu,Fri,Sat');
  } else if (t.repeat_on) problems.add('repeat_on', 'applies only when repeat is weekly');
}

/**
 * The instant of `time` on a local date. A wall-clock time that does not exist that day
 * (skipped by a DST change) moves to the first valid minute after it; a time that occurs
 * twice (clocks turned back) is taken once, at its first occurrence.
 */
export function wallClockInstant(date: DateTime, time: string, zone: string): number | undefined {
  const [h, m] = time.split(':').map(Number) as [number, number];
  for (let minutes = h * 60 + m; minutes < 24 * 60; minutes++) {
    const hour = Math.floor(minutes / 60);
    const minute = minutes % 60;
    const t = DateTime.fromObject({ year: date.year, month: date.month, day: date.day, hour, minute }, { zone });
    if (t.hour !== hour || t.minute !== minute || t.day !== date.day) continue;
    // In a repeated hour luxon picks the later instant; take the earlier one if it exists.
    for (const shift of [60, 30]) {
      const earlier = t.minus({ minutes: shift });
      if (earlier.hour === hour && earlier.minute === minute && earlier.day === date.day) return earlier.toMillis();
    }
    return t.toMillis();
  }
  return undefined;
}

function runsOn(t: ScheduleTiming, day: DateTime): boolean {
  const weekday = day.weekday % 7; // luxon: 1 = Monday … 7 = Sunday
  switch (t.repeat) {
    case 'daily':
      return true;
    case 'weekdays':
      return weekday >= 1 && weekday <= 5;
    case 'weekly':
      return (t.days ?? []).includes(weekday);
    case 'once':
      return day.toISODate() === t.date;
  }
}

/** The first occurrence strictly after `after`, or undefined when there is none (a past one-off). */
export function nextOccurrence(t: ScheduleTiming, after: number): number | undefined {
  if (t.repeat === 'once') {
    const day = DateTime.fromISO(t.date!, { zone: t.timezone });
    const at = wallClockInstant(day, t.time, t.timezone);
    return at !== undefined && at > after ? at : undefined;
  }
  const start = DateTime.fromMillis(after, { zone: t.timezone }).startOf('day');
  for (let i = 0; i <= 8; i++) {
    const day = start.plus({ days: i });
    if (!runsOn(t, day)) continue;
    const at = wallClockInstant(day, t.time, t.timezone);
    if (at !== undefined && at > after) return at;
  }
  return undefined;
}
