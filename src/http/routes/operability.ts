import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { Registry } from 'prom-client';
import type { ServerStatus } from '../../schemas/endpoints/operability.js';
import { AppError } from '../../domain/errors.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

/** Named readiness checks; each resolves true when its part is ready. */
export type ReadinessChecks = Record<string, () => Promise<boolean>>;

/** What GET /_status answers: the running process as it describes itself (no secret in it). */
export type StatusReport = () => Static<typeof ServerStatus>;

export function operabilityRoutes(
  app: FastifyInstance,
  checks: ReadinessChecks,
  registry: Registry,
  status: StatusReport,
): void {
  serve(app, 'health', async () => ({ status: 'ok' as const }));

  serve(app, 'serverStatus', async () => status());

  serve(app, 'ready', async () => {
    const results: Record<string, boolean> = {};
    for (const [name, check] of Object.entries(checks)) results[name] = await check().catch(() => false);
    const failing = Object.keys(results).filter((name) => !results[name]);
    if (failing.length > 0) {
      throw new AppError(
        'unavailable',
        failing.map((name) => ({ field: name, reason: 'is not ready' })),
      );
    }
    return { status: 'ready' as const, checks: results };
  });

  // Text for Prometheus, not an API endpoint: the OpenAPI document describes it on its own.
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
