import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../domain/principal.js';
import type { Services } from '../domain/services.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

/** Adds the x-api-key check to every route of the scope it is called in. */
export function requireApiKey(scope: FastifyInstance, services: Services): void {
  scope.decorateRequest('principal', null as unknown as Principal);
  scope.addHook('onRequest', async (request: FastifyRequest) => {
    const header = request.headers['x-api-key'];
    request.principal = await services.apiKeys.authenticate(Array.isArray(header) ? header[0] : header);
  });
}
