import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../domain/errors.js';
import type { RequestContext } from '../domain/workgroups.js';

/** `"3"`, `W/"3"` or `3` → 3; `*` or no header → undefined (any version). */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw invalid('If-Match', 'must be the version_number of the resource, e.g. "3"');
  return Number(match[1]);
}

export function requestContext(request: FastifyRequest): RequestContext {
  return { ip: request.ip, ifMatch: parseIfMatch(request.headers['if-match']) };
}

/** Reads send the record's version as a strong ETag, for use in If-Match. */
export function setEtag(reply: FastifyReply, record: { version_number?: number | undefined }): void {
  if (record.version_number !== undefined) reply.header('etag', `"${record.version_number}"`);
}
