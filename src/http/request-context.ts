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

export function requestContext(request: FastifyRequest): RequestContext {
  return { ip: request.ip, ifMatch: parseIfMatch(request.headers['if-match']) };
}

/** Reads send the record's version as a strong ETag, for use in If-Match. */
export function setEtag(reply: FastifyReply, record: { version_number?: number | undefined }): void {
  if (record.version_number !== undefined) reply.header('etag', `"${record.version_number}"`);
}

/**
 * A malformed If-Match is refused on every route of the scope, not only on those that compare
 * versions, so a precondition is never silently ignored. Runs after authentication and the
 * rate limit.
 */
export function checkIfMatch(scope: FastifyInstance): void {
  scope.addHook('preValidation', async (request: FastifyRequest) => {
    parseIfMatch(request.headers['if-match']);
  });
}

/** HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own check would answer without a body. */
export function requireHost(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1 && request.headers.host === undefined) {
    throw invalid('Host', 'is required in an HTTP/1.1 request');
  }
}

/** Path and query values are text the stores compare as sent, and PostgreSQL text cannot hold NUL. */
export function refuseNulInParameters(request: FastifyRequest): void {
  const problems = new Problems();
  for (const part of [request.params, request.query]) {
    for (const [name, value] of Object.entries((part ?? {}) as Record<string, unknown>)) {
      if ([value].flat().some((v) => typeof v === 'string' && v.includes('\u0000'))) problems.add(name, 'must not contain NUL (%00) characters');
    }
  }
  problems.throwIfAny();
}
