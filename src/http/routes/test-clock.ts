import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Problems } from '../../domain/errors.js';
import { authorize } from '../../domain/permissions.js';
import { iso } from '../../domain/time.js';
import { Body } from '../../schemas/helpers.js';
import { ok } from '../envelope.js';
import { replies } from '../responses.js';

const ClockBody = Body({
  advance_seconds: Type.Optional(Type.Number({ minimum: 0, maximum: 366 * 24 * 3600 })),
  now: Type.Optional(Type.String({ format: 'date-time', maxLength: 64 })),
  skip_due: Type.Optional(Type.Boolean({ description: 'move at once, as if the process had been down meanwhile, then run what is due (late)' })),
});

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
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  api.post('/_test/clock', {
    schema: {
      operationId: 'moveTestClock', summary: 'Move the manual clock and run what becomes due (ACACIA_CLOCK=manual only)', tags: ['testing'],
      body: ClockBody, response: replies(Type.Object({ now: Type.String() })),
    },
    handler: async (request) => {
      authorize(request.principal, 'org:admin');
      const problems = new Problems();
      const { advance_seconds, now } = request.body;
      if ((advance_seconds === undefined) === (now === undefined)) problems.add('advance_seconds', 'give exactly one of advance_seconds and now');
      const target = now === undefined ? clock.now() + (advance_seconds ?? 0) * 1000 : Date.parse(now);
      if (target < clock.now()) problems.add('now', `must not be before the current time ${iso(clock.now())}`);
      problems.throwIfAny();
      await (request.body.skip_due ? clock.jumpTo(target) : clock.moveTo(target));
      return ok(request, { now: iso(clock.now()) });
    },
  });
}
