import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.js';
import type { Principal } from '../domain/principal.js';
import type { Services } from '../domain/services.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

const refused = (field: string, reason: string) => new AppError('unauthenticated', { field, reason });

/**
 * The API key a request carries, in `x-api-key` or as `Authorization: Bearer <key>` (the
 * real service's form), and the header it came in. Both may be sent if they agree. An
 * Authorization header of another scheme is no API key: beside x-api-key it is ignored.
 */
function credentialOf(request: FastifyRequest): { key: string | undefined; header: string } {
  const raw = request.headers['x-api-key'];
  const apiKey = Array.isArray(raw) ? raw[0] : raw;
  const authorization = request.headers.authorization;
  if (authorization === undefined) return { key: apiKey, header: 'x-api-key' };
  const bearer = BEARER.exec(authorization)?.[1];
  if (bearer === undefined) {
    if (apiKey !== undefined) return { key: apiKey, header: 'x-api-key' };
    throw refused('Authorization', 'must be "Bearer <API key>" (or send the key in x-api-key)');
  }
  if (apiKey !== undefined && apiKey !== bearer)
    throw refused('Authorization', 'carries another API key than x-api-key; send one key, in either header');
  return { key: bearer, header: apiKey !== undefined ? 'x-api-key' : 'Authorization' };
}

/** The API key a request was admitted with, as it was sent (in either header); for routes behind requireApiKey. */
export function apiKeyOf(request: FastifyRequest): string {
  const { key } = credentialOf(request);
  if (key === undefined)
    throw new Error('apiKeyOf: the request carries no API key; is the route behind requireApiKey?');
  return key;
}

/** The same refusal, naming the header the key came in. */
function naming(header: string) {
  return (err: unknown) =>
    header !== 'x-api-key' && err instanceof AppError && err.code === 'unauthenticated'
      ? new AppError(
          err.code,
          err.details.map((d) => ({ field: d.field === 'x-api-key' ? header : d.field, reason: d.reason })),
        )
      : err;
}

/** Adds the API key check (x-api-key or Authorization: Bearer) to every route of the scope it is called in. */
export function requireApiKey(scope: FastifyInstance, services: Services): void {
  scope.decorateRequest('principal', null as unknown as Principal);
  // On SQLite the key is known without a promise; a throw here (revoked, expired) reaches
  // Fastify's error handler like any hook's.
  scope.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    let header = 'x-api-key';
    let principal;
    try {
      const credential = credentialOf(request);
      header = credential.header;
      if (credential.key === undefined)
        throw refused('x-api-key', 'an API key is required: send it in x-api-key or as Authorization: Bearer <key>');
      principal = services.apiKeys.authenticate(credential.key);
    } catch (err) {
      return done(naming(header)(err) as Error);
    }
    if (!(principal instanceof Promise)) {
      request.principal = principal;
      return done();
    }
    principal.then(
      (found) => {
        request.principal = found;
        done();
      },
      (err: unknown) => done(naming(header)(err) as Error),
    );
  });
}
