import type { FastifyInstance } from 'fastify';
import { withStatementTally, type StatementTally } from '../store/statement-tally.js';

const tallies = new WeakMap<object, StatementTally>();

/**
 * `Server-Timing: store;dur=<ms>;desc="<n> statements"` on every answer: what the request cost
 * the store. Each request runs in a tally of its own (AsyncLocalStorage entered in onRequest,
 * as @fastify/request-context does), so concurrent requests never mix their counts.
 */
export function serverTiming(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const tally: StatementTally = { statements: 0, ms: 0 };
    tallies.set(request, tally);
    withStatementTally(tally, done);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const tally = tallies.get(request);
    if (tally) reply.header('server-timing', `store;dur=${tally.ms.toFixed(2)};desc="${tally.statements} statements"`);
    done(null, payload);
  });
}
