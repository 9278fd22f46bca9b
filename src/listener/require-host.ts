import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { invalid } from '../domain/errors.js';

/** HTTP/1.1 requires Host (RFC 9112 §3.2). */
export const lacksHost = (raw: IncomingMessage): boolean =>
  raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1 && raw.headers.host === undefined;

/** Refuses an HTTP/1.1 request without Host; Node's own check would answer without a body. */
export function requireHost(request: FastifyRequest): void {
  if (lacksHost(request.raw)) throw invalid('Host', 'is required in an HTTP/1.1 request');
}
