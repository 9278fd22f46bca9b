import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { AppError } from '../../domain/errors.js';
import { ok } from '../envelope.js';
import { replies } from '../responses.js';

/** Named readiness checks; each resolves true when its part is ready. */
export type ReadinessChecks = Record<string, () => Promise<boolean>>;

const Status = Type.Object({ status: Type.String() });
const Readiness = Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Type.Boolean()) });
const tags = ['operations'];

export function operabilityRoutes(scope: FastifyInstance, checks: ReadinessChecks, registry: Registry): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/healthz', {
    schema: { operationId: 'health', summary: 'The process is up', tags, security: [], response: replies(Status) },
    handler: async (request) => ok(request, { status: 'ok' }),
  });

  app.get('/readyz', {
    schema: { operationId: 'ready', summary: 'The store and the engine are ready', tags, security: [], response: { ...replies(Readiness), 503: replies(Readiness)['5xx'] } },
    handler: async (request) => {
      const results: Record<string, boolean> = {};
      for (const [name, check] of Object.entries(checks)) results[name] = await check().catch(() => false);
      const failing = Object.keys(results).filter((name) => !results[name]);
      if (failing.length > 0) {
        throw new AppError('unavailable', failing.map((name) => ({ field: name, reason: 'is not ready' })));
      }
      return ok(request, { status: 'ready', checks: results });
    },
  });

  app.get('/metrics', {
    schema: { operationId: 'metrics', summary: 'Prometheus metrics (text exposition format)', tags, security: [], produces: ['text/plain'] },
    handler: async (_request, reply) => {
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    },
  });
}
