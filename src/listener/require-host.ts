import type { FastifyRequest } from 'fastify';
import { invalid } from '../domain/errors.js';

/** HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own check would answer without a body. */
export function requireHost(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1 && request.headers.host === undefined) {
    throw invalid('Host', 'is required in an HTTP/1.1 request');
  }
}
