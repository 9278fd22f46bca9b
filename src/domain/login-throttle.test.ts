import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from './clock.js';
import { LoginThrottle, defaultThrottlePolicy } from './login-throttle.js';

describe('LoginThrottle', () => {
  it('lets five failures through, then doubles the wait from one second, then locks for 15 minutes', () => {
    const clock = new ManualClock(0);
    const t = new LoginThrottle(clock);
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      clock.advance(t.waitMs('k'));
      t.failed('k');
      waits.push(t.waitMs('k'));
    }
    assert.deepEqual(waits, [0, 0, 0, 0, 0, 1000, 2000, 4000, 8000, 15 * 60_000]);
    clock.advance(15 * 60_000);
    assert.equal(t.waitMs('k'), 0);
    t.failed('k');
    assert.equal(t.waitMs('k'), 15 * 60_000, 'a failure after the lockout locks again');
  });

  it('starts afresh after a success, or an hour without failures', () => {
    const clock = new ManualClock(0);
    const t = new LoginThrottle(clock);
    for (let i = 0; i < 6; i++) t.failed('a');
    assert.equal(t.waitMs('a'), 1000);
    t.succeeded('a');
    assert.equal(t.waitMs('a'), 0);
    for (let i = 0; i < 6; i++) t.failed('b');
    clock.advance(60 * 60_000);
    assert.equal(t.waitMs('b'), 0);
    t.failed('b');
    assert.equal(t.waitMs('b'), 0, 'the old failures no longer count');
  });

  it('keys are independent, and at most maxKeys are remembered, the stalest forgotten first', () => {
    const clock = new ManualClock(0);
    const t = new LoginThrottle(clock, { ...defaultThrottlePolicy, maxKeys: 3 });
    for (let i = 0; i < 6; i++) t.failed('x');
    assert.equal(t.waitMs('y'), 0);
    for (const key of ['p', 'q', 'r', 's']) t.failed(key);
    assert.equal(t.size, 3);
    assert.equal(t.waitMs('x'), 0, 'the stalest key was forgotten');
  });
});
