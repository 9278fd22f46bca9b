import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  onSendAsyncHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import { invalid } from '../domain/errors.js';
import { requestFingerprint, type IdempotencyClaim } from '../domain/idempotency.js';
import type { Services } from '../domain/services.js';
import type { Tx } from '../store/store.js';
import { apiKeyOf } from './auth.js';
import { appendRouteHook } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed. */
    idempotency?: IdempotencyClaim;
    /**
     * The unit of work a claimed POST's handler runs in (see runOnce), for the handler to hand
     * to the domain; undefined otherwise, and the domain opens its own.
     */
    tx?: Tx;
  }
  interface FastifyContextConfig {
    /** Fields of the route's Result shown in its response only: a replay leaves them out. */
    oneTimeSecrets?: readonly string[];
  }
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

/** The response as it may be kept: without the Result's one-time secrets. */
function storable(payload: string, secrets: readonly string[] | undefined): string {
  if (!secrets?.length) return payload;
  const envelope = JSON.parse(payload) as { Result?: unknown };
  const result = envelope.Result;
  if (result === null || typeof result !== 'object') return payload;
  for (const field of secrets) delete (result as Record<string, unknown>)[field];
  return JSON.stringify(envelope);
}

/**
 * Idempotency-Key on POST: run once per (API key, Idempotency-Key); a replay returns the
 * first response. Authentication and the rate limit have run by then, so a replay goes only
 * to the key that made the request, while it is valid. The handler of a claimed request runs
 * in one unit of work with the write of its serialised response (see runOnce), handed to it
 * as `request.tx`, so the response is committed with the changes it reports, before it is sent. A route's `prepare`
 * (slow work outside the store, src/http/serve-endpoint.ts) runs before that transaction.
 */
export function idempotentPosts(scope: FastifyInstance, services: Services): void {
  const begin: preHandlerAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw invalid('Idempotency-Key', 'must be 1-255 visible ASCII characters');
    }
    // Keyed with the API key authentication admitted, whichever header carried it, so a
    // replay may send it in the other.
    const fingerprint = requestFingerprint(apiKeyOf(request), request.method, request.url, request.body);
    const outcome = await services.idempotency.begin({ apiKeyId: request.principal.keyId, key }, fingerprint);
    if (outcome.kind === 'replay') {
      return reply
        .code(outcome.statusCode)
        .header('content-type', JSON_TYPE)
        .header('idempotent-replayed', 'true')
        .send(outcome.body);
    }
    request.idempotency = outcome.claim;
  };

  // An answer the handler did not give (a refusal thrown, an error): kept or given up here.
  const finish: onSendAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (claim === undefined || claim.settled) return payload;
    const kept =
      typeof payload === 'string' ? storable(payload, request.routeOptions.config.oneTimeSecrets) : undefined;
    try {
      await services.idempotency.settle(claim, reply.statusCode, kept);
    } catch (err) {
      // The store is unreachable: the claim is given up after ABANDONED_CLAIM_MS instead.
      request.log.warn({ err }, 'could not record the Idempotency-Key outcome');
    }
    return payload;
  };

  scope.addHook('onRoute', (route) => {
    if (route.method !== 'POST') return;
    appendRouteHook(route, 'preHandler', begin);
    appendRouteHook(route, 'onSend', finish);
    const handler = route.handler as RouteHandlerMethod;
    const secrets = route.config?.oneTimeSecrets;
    const prepare = route.config?.prepare;
    route.handler = async function (this: FastifyInstance, request, reply) {
      const claim = request.idempotency;
      if (claim === undefined) return handler.call(this, request, reply);
      // Slow work outside the store (a DNS lookup) before the transaction, not while holding it.
      if (prepare) await prepare(request);
      const body = await services.idempotency.runOnce(claim, async (tx) => {
        request.tx = tx;
        try {
          const body = reply.serialize(await handler.call(this, request, reply)) as string;
          return { statusCode: reply.statusCode, body, kept: storable(body, secrets) };
        } finally {
          request.tx = undefined;
        }
      });
      // Serialised already: sent as it is.
      return reply.type(JSON_TYPE).send(body);
    };
  });
}
