import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ChaosService } from '../domain/chaos.js';

/**
 * Applies the chaos rules to the API's requests (docs/chaos.md), after authentication (a rule
 * is its organisation's) and before the body is read or checked, as a failing service would.
 * With no rule in force it costs a property read: no statement, no promise.
 */
export function applyChaos(scope: FastifyInstance, chaos: ChaosService): void {
  if (!chaos.enabled) return;
  scope.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!chaos.any) return done();
    void injected(request, reply, chaos).then(
      (answered) => (answered ? undefined : done()),
      (err: Error) => done(err),
    );
  });
}

/** Delays and fails the request as its rules say; true when it was answered here. */
async function injected(request: FastifyRequest, reply: FastifyReply, chaos: ChaosService): Promise<boolean> {
  await chaos.current();
  const endpointId = request.routeOptions.config?.endpointId;
  const { fail, latency } = chaos.matchRequest(request.principal.orgId, endpointId, request.method, request.url);
  if (latency && (await chaos.hit(latency)) !== undefined) {
    const ms = chaos.delayMs(latency);
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  }
  if (!fail) return false;
  const n = await chaos.hit(fail);
  if (n === undefined || !chaos.failsNow(fail, n)) return false;
  const failure = chaos.failure(fail);
  if (failure.status === 503 || failure.status === 429) reply.header('retry-after', '1');
  await reply.code(failure.status).send({
    Error: true,
    ErrorDetails: [{ FieldName: '', Reason: failure.reason, Type: failure.type }],
    Message: failure.message,
    RequestID: request.id,
  });
  return true;
}
