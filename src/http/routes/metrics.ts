import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { prometheusText } from '../prometheus-text.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function metricsRoutes(api: FastifyInstance, services: Services): void {
  const { metrics } = services;
  serve(api, 'workspaceMetrics', async (request) =>
    prometheusText(await metrics.workspace(request.principal, request.params.workgroupID, request.params.workspaceID)),
  );
  serve(api, 'workgroupMetrics', async (request) => metrics.workgroup(request.principal, request.params.workgroupID));
}
