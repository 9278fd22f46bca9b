import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { pageItems } from '../responses.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function operationRoutes(api: FastifyInstance, services: Services): void {
  serve(api, 'getOperation', async (request) => services.operations.get(request.principal, request.params.id));
  serve(api, 'listOperations', async (request, reply) => {
    const { resource_id, ...page } = request.query;
    return pageItems(reply, await services.operations.list(request.principal, resource_id, page));
  });
}
