import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { OperationParams, OperationRecord, OperationsQuery } from '../../schemas/operation.js';
import { ok } from '../envelope.js';
import { pageItems, replies } from '../responses.js';

const tags = ['operations'];

export function operationRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/operations/:id', {
    schema: { operationId: 'getOperation', summary: 'Get an asynchronous operation', tags, params: OperationParams, response: replies(OperationRecord) },
    handler: async (request) => ok(request, await services.operations.get(request.principal, request.params.id)),
  });

  api.get('/operations', {
    schema: { operationId: 'listOperations', summary: 'List operations, optionally of one resource', tags, querystring: OperationsQuery, response: replies(Type.Array(OperationRecord)) },
    handler: async (request, reply) => {
      const { resource_id, ...page } = request.query;
      return ok(request, pageItems(reply, await services.operations.list(request.principal, resource_id, page)));
    },
  });
}
