import type { FastifyInstance } from 'fastify';
import { LATEST_MANUAL_TIME } from '../../domain/clock.js';
import { Problems } from '../../domain/errors.js';
import { authorize } from '../../domain/permissions.js';
import { iso } from '../../domain/time.js';
import { serveEndpoint } from '../serve-endpoint.js';

/** The manual clock as the route needs it. */
export interface TestClock {
  now(): number;
  /** Catches up with a time another process on the same store set. */
  sync(): Promise<void>;
  /** Moves the clock to `target`, running everything that becomes due on the way. */
  moveTo(target: number): Promise<void>;
  /** Moves the clock at once, then runs what is due (late). */
  jumpTo(target: number): Promise<void>;
}

/** POST /_test/clock: only with ACACIA_CLOCK=manual; moves the manual clock forward. */
export function testClockRoutes(scope: FastifyInstance, clock: TestClock): void {
  serveEndpoint(scope, 'moveTestClock', async (request) => {
    authorize(request.principal, 'org:admin');
    const problems = new Problems();
    const { advance_seconds, now } = request.body;
    if ((advance_seconds === undefined) === (now === undefined))
      problems.add('advance_seconds', 'give exactly one of advance_seconds and now');
    const target = now === undefined ? clock.now() + (advance_seconds ?? 0) * 1000 : Date.parse(now);
    // Date.parse has no leap second (23:59:60), which the date-time format admits.
    if (Number.isNaN(target)) problems.add('now', 'must be an RFC 3339 time without a leap second');
    else if (target < clock.now()) problems.add('now', `must not be before the current time ${iso(clock.now())}`);
    else if (target > LATEST_MANUAL_TIME)
      problems.add(
        now === undefined ? 'advance_seconds' : 'now',
        `must not move the clock past ${iso(LATEST_MANUAL_TIME)} (the current time is ${iso(clock.now())})`,
      );
    problems.throwIfAny();
    await (request.body.skip_due ? clock.jumpTo(target) : clock.moveTo(target));
    return { now: iso(clock.now()) };
  });
}
