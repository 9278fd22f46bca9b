import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import { invalid } from '../domain/errors.js';
import { requestFingerprint } from '../domain/idempotency.js';
import type { Services } from '../domain/services.js';
import { appendRouteHook } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Idempotency-Key on POST: run once per (organisation, key); a replay returns the first response. */
export function idempotentPosts(scope: FastifyInstance, services: Services): void {
  const begin: preHandlerAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw invalid('Idempotency-Key', 'must be 1-255 visible ASCII characters');
    }
    const fingerprint = requestFingerprint(request.method, request.url, request.body);
    const outcome = await services.idempotency.begin(request.principal.orgId, key, fingerprint);
    if (outcome.kind === 'replay') {
      return reply
        .code(outcome.statusCode)
        .header('content-type', 'application/json; charset=utf-8')
        .header('idempotent-replayed', 'true')
        .send(outcome.body);
    }
    request.idempotencyKey = key;
  };

  const finish: onSendAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const key = request.idempotencyKey;
    if (key === undefined) return payload;
    // Failures on our side are not remembered, so the client's retry runs again.
    if (reply.statusCode >= 500 || typeof payload !== 'string') await services.idempotency.release(request.principal.orgId, key);
    else await services.idempotency.complete(request.principal.orgId, key, reply.statusCode, payload);
    return payload;
  };

  scope.addHook('onRoute', (route) => {
    if (route.method !== 'POST') return;
    appendRouteHook(route, 'preHandler', begin);
    appendRouteHook(route, 'onSend', finish);
  });
}
