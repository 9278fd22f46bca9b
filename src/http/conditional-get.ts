import type { onSendHookHandler } from 'fastify';

/** Whether an If-None-Match header names this entity tag (weak comparison, RFC 9110 §13.1.2). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * A read whose record has not changed since the ETag the client holds is answered 304
 * without a body. Runs on the answer once built: for the versioned reads that have no probe
 * (serve-endpoint.ts), and for a record that changed back to the held version between the
 * probe and the read.
 */
export const answerNotModified: onSendHookHandler = (request, reply, payload, done) => {
  const etag = reply.getHeader('etag');
  const header = request.headers['if-none-match'];
  if (reply.statusCode === 200 && typeof etag === 'string' && noneMatch(header, etag)) {
    reply.code(304);
    reply.removeHeader('content-type');
    return done(null, null);
  }
  done(null, payload);
};
