import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { AppError } from '../../domain/errors.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

/** Named readiness checks; each resolves true when its part is ready. */
export type ReadinessChecks = Record<string, () => Promise<boolean>>;

export function operabilityRoutes(app: FastifyInstance, checks: ReadinessChecks, registry: Registry): void {
  serve(app, 'health', async () => ({ status: 'ok' as const }));

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
