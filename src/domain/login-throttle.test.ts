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

describe('LoginThrottle: attempts at once', () => {
  const settleAll = async (
    t: LoginThrottle,
    n: number,
    outcome: 'failed' | 'succeeded',
  ): Promise<{ checked: number; heldBack: number }> => {
    let checked = 0;
    let heldBack = 0;
    await Promise.all(
      Array.from({ length: n }, async () => {
        const attempt = await t.admit('k');
        if ('waitMs' in attempt) {
          heldBack++;
          return;
        }
        checked++;
        // The check takes a while: every other attempt has asked to be admitted meanwhile.
        await new Promise<void>((resolve) => setImmediate(resolve));
        attempt[outcome]();
      }),
    );
    return { checked, heldBack };
  };

  it('checks sixty wrong passwords sent at once as it would sixty sent in turn: six, then holds back', async () => {
    const clock = new ManualClock(0);
    const t = new LoginThrottle(clock);
    assert.deepEqual(await settleAll(t, 60, 'failed'), { checked: 6, heldBack: 54 });
    assert.equal(t.waitMs('k'), 1000);
  });

  it('lets right passwords sent at once all through, five being checked at a time', async () => {
    const clock = new ManualClock(0);
    const t = new LoginThrottle(clock);
    assert.deepEqual(await settleAll(t, 30, 'succeeded'), { checked: 30, heldBack: 0 });
    assert.equal(t.waitMs('k'), 0);
  });

  it('after the free failures, admits one attempt at a time', async () => {
    const clock = new ManualClock(0);
    const t = new LoginThrottle(clock);
    for (let i = 0; i < 7; i++) {
      clock.advance(t.waitMs('k'));
      t.failed('k');
    }
    clock.advance(t.waitMs('k'));
    const first = await t.admit('k');
    assert.ok(!('waitMs' in first));
    let second: Awaited<ReturnType<LoginThrottle['admit']>> | undefined;
    const pending = t.admit('k').then((a) => (second = a));
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(second, undefined, 'the second waits for the first');
    first.failed();
    await pending;
    assert.deepEqual(second, { waitMs: 4000 }, 'and is then judged on its outcome');
  });

  it('holds back attempts past maxWaiting at once, and forgets a key once nothing is in flight', async () => {
    const clock = new ManualClock(0);
    const t = new LoginThrottle(clock, { ...defaultThrottlePolicy, maxWaiting: 2 });
    assert.deepEqual(await settleAll(t, 8, 'succeeded'), { checked: 7, heldBack: 1 });
    assert.equal(t.size, 0);
  });
});
