import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Problems, invalid } from '../domain/errors.js';
import type { RequestContext } from '../domain/workgroups.js';

/** `"3"`, `W/"3"` or `3` → 3; `*` or no header → undefined (any version). */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?(?:"(\d{1,9})"|(\d{1,9}))\s*$/.exec(header);
  if (!match) throw invalid('If-Match', 'must be the version_number of the resource, e.g. "3"');
  return Number(match[1] ?? match[2]);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the domain is told about this request. */
    domainContext: RequestContext | undefined;
  }
}

/** The request's context for the domain, made once per request. */
export function requestContext(request: FastifyRequest): RequestContext {
  request.domainContext ??= { ip: request.ip, ifMatch: parseIfMatch(request.headers['if-match']) };
  return request.domainContext;
}

/**
 * A malformed If-Match is refused on every route of the scope, not only on those that compare
 * versions, so a precondition is never silently ignored. Runs after authentication and the
 * rate limit.
 */
export function checkIfMatch(scope: FastifyInstance): void {
  scope.addHook('preValidation', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    parseIfMatch(request.headers['if-match']);
    done();
  });
}

/** Path and query values are text the stores compare as sent, and PostgreSQL text cannot hold NUL. */
export function refuseNulInParameters(request: FastifyRequest): void {
  let problems: Problems | undefined;
  for (const part of [request.params, request.query] as Array<Record<string, unknown> | undefined>) {
    for (const name in part) {
      const value = part[name];
      const values = Array.isArray(value) ? value : [value];
      if (values.some((v) => typeof v === 'string' && v.includes('\u0000')))
        (problems ??= new Problems()).add(name, 'must not contain NUL (%00) characters');
    }
  }
  problems?.throwIfAny();
}
