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
  // A key seen under the same store token is known without the store and without a promise;
  // a throw here (revoked, expired) reaches Fastify's error handler like any hook's.
  scope.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const raw = request.headers['x-api-key'];
    request.storeToken = services.store.changeToken();
    const principal = services.apiKeys.authenticate(Array.isArray(raw) ? raw[0] : raw, request.storeToken);
    if (!(principal instanceof Promise)) {
      request.principal = principal;
      return done();
    }
    principal.then((found) => {
      request.principal = found;
      done();
    }, done);
  });
}
