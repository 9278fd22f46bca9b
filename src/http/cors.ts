import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Headers a browser may send: the API key in either form, JSON, preconditions, retries, tracing. */
const ALLOWED_HEADERS = [
  'x-api-key',
  'authorization',
  'content-type',
  'if-match',
  'if-none-match',
  'idempotency-key',
  'x-request-id',
];

/** Response headers a browser script may read. */
const EXPOSED_HEADERS = [
  'ETag',
  'X-Request-ID',
  'X-Next-Cursor',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Idempotent-Replayed',
];

/**
 * Lets browsers on the configured origins call every route (ACACIA_CORS_ORIGINS): a preflight
 * from an allowed origin is answered with the methods and headers the API takes; one from any
 * other origin (or none) gets no CORS header at all and the 405 of any OPTIONS request, so the
 * browser refuses it. Listed origins may send credentials; `*` allows any origin without them.
 * Without origins nothing is registered and OPTIONS stays unknown (405).
 */
export async function allowCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  await app.register(cors, {
    // false: no CORS headers at all, and a preflight is not answered (405 like any OPTIONS).
    origin: (origin, done) => done(null, origin === undefined ? false : any ? '*' : allowed.has(origin) && origin),
    credentials: !any,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    strictPreflight: false,
  });
}
