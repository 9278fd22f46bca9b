import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../domain/principal.js';
import type { Services } from '../domain/services.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    /** The store's change token when the request began (undefined on PostgreSQL). */
    storeToken: number | undefined;
  }
}

/** Adds the x-api-key check to every route of the scope it is called in. */
export function requireApiKey(scope: FastifyInstance, services: Services): void {
  scope.decorateRequest('principal', null as unknown as Principal);
  scope.decorateRequest('storeToken', undefined);
  // A key seen under the same store token is known without the store (see ApiKeyService.recognise).
  scope.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const raw = request.headers['x-api-key'];
    const header = Array.isArray(raw) ? raw[0] : raw;
    request.storeToken = services.store.changeToken();
    const known = header ? services.apiKeys.recognise(header, request.storeToken) : undefined;
    if (known) {
      request.principal = known;
      return done();
    }
    services.apiKeys.authenticate(header, request.storeToken).then((principal) => {
      request.principal = principal;
      done();
    }, done);
  });
}
