import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../domain/errors.js';

/**
 * Per-API-key request limit over a one-minute window. Counters are kept per process: with
 * several processes behind a balancer each enforces the limit on the requests it serves.
 */
export async function limitRequestRate(scope: FastifyInstance, perMinute: number): Promise<void> {
  if (perMinute === 0) return;
  await scope.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    hook: 'preParsing', // after authentication (onRequest), before the body is read
    enableDraftSpec: true,
    keyGenerator: (request) => request.principal?.keyId ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate-limited', {
        field: 'x-api-key',
        reason: `at most ${context.max} requests per minute per API key; retry in ${context.after}`,
      }),
  });
}
