import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Semaphore, SemaphoreFull } from './semaphore.js';

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, queues up to `maxWaiting` in order and refuses the rest', async () => {
    const s = new Semaphore(2, 2);
    let peak = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const task = (i: number) => () =>
      new Promise<number>((resolve) => {
        peak = Math.max(peak, s.active);
        order.push(i);
        releases.push(() => resolve(i));
      });
    const running = [0, 1, 2, 3].map((i) => s.run(task(i)));
    await assert.rejects(s.run(task(4)), SemaphoreFull);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, [0, 1]);
    while (order.length < 4 || releases.length > 0) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    assert.deepEqual(await Promise.all(running), [0, 1, 2, 3]);
    assert.deepEqual(order, [0, 1, 2, 3]);
    assert.equal(peak, 2);
    assert.equal(s.active, 0);
  });

  it('frees its place when a task fails', async () => {
    const s = new Semaphore(1, 0);
    await assert.rejects(
      s.run(() => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await s.run(async () => 'next'), 'next');
  });
});
