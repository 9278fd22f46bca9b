import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { formatRepeatOn, nextOccurrence, parseRepeatOn } from './schedule-rules.js';

const at = (iso: string) => DateTime.fromISO(iso, { setZone: true }).toMillis();
const show = (ms: number | undefined, zone: string) =>
  ms === undefined ? undefined : DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true });

describe('schedule rules', () => {
  it('parses repeat_on in any case, abbreviated or in full', () => {
    assert.deepEqual(parseRepeatOn('Mon,wed, FRIDAY'), [1, 3, 5]);
    assert.deepEqual(parseRepeatOn('sun,SUN'), [0]);
    assert.equal(parseRepeatOn('Mon,Funday'), undefined);
    assert.equal(parseRepeatOn(''), undefined);
    assert.equal(formatRepeatOn([0, 6]), 'Sun,Sat');
  });

  // Europe/Berlin: clocks go 02:00 → 03:00 on 2026-03-29 and 03:00 → 02:00 on 2026-10-25.
  const zone = 'Europe/Berlin';

  it('runs a time skipped by the spring change at the first valid minute after it', () => {
    const t = { repeat: 'daily' as const, time: '02:30', timezone: zone };
    assert.equal(show(nextOccurrence(t, at('2026-03-28T12:00:00+01:00')), zone), '2026-03-29T03:00:00+02:00');
    assert.equal(show(nextOccurrence(t, at('2026-03-29T03:00:00+02:00')), zone), '2026-03-30T02:30:00+02:00');
  });

  it('runs a time repeated by the autumn change once', () => {
    const t = { repeat: 'daily' as const, time: '02:30', timezone: zone };
    const first = nextOccurrence(t, at('2026-10-24T12:00:00+02:00'))!;
    assert.equal(show(first, zone), '2026-10-25T02:30:00+02:00');
    assert.equal(show(nextOccurrence(t, first), zone), '2026-10-26T02:30:00+01:00', 'not again an hour later');
  });

  it('keeps the local time across a change: 07:00 is 06:00Z before and 05:00Z after', () => {
    const t = { repeat: 'daily' as const, time: '07:00', timezone: zone };
    assert.equal(new Date(nextOccurrence(t, at('2026-03-28T00:00:00Z'))!).toISOString(), '2026-03-28T06:00:00.000Z');
    assert.equal(new Date(nextOccurrence(t, at('2026-03-29T00:00:00Z'))!).toISOString(), '2026-03-29T05:00:00.000Z');
  });

  it('weekdays skip the weekend; weekly runs on the listed days', () => {
    const weekdays = { repeat: 'weekdays' as const, time: '09:00', timezone: zone };
    // Friday after 9 → Monday
    assert.equal(show(nextOccurrence(weekdays, at('2026-03-27T10:00:00+01:00')), zone), '2026-03-30T09:00:00+02:00');
    const weekly = { repeat: 'weekly' as const, days: [2, 4], time: '18:15', timezone: zone };
    // Thursday after the time → Tuesday
    assert.equal(show(nextOccurrence(weekly, at('2026-03-26T19:00:00+01:00')), zone), '2026-03-31T18:15:00+02:00');
  });

  it('a one-off runs once on its date and never after', () => {
    const once = { repeat: 'once' as const, date: '2026-03-29', time: '02:15', timezone: zone };
    const first = nextOccurrence(once, at('2026-03-01T00:00:00Z'));
    assert.equal(show(first, zone), '2026-03-29T03:00:00+02:00');
    assert.equal(nextOccurrence(once, first!), undefined);
  });
});
