import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { describeCatalog } from '../../domain/meta.js';
import { MetaRecord } from '../../schemas/meta.js';
import { ok } from '../envelope.js';
import { replies } from '../responses.js';

export function catalogRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/workspaces/meta', {
    schema: { operationId: 'getWorkspaceMeta', summary: 'Sizes, versions, regions, add-ons and tier limits', tags: ['workspaces'], response: replies(MetaRecord) },
    handler: async (request) => ok(request, describeCatalog(services.catalog, request.principal)),
  });
}
