import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { ListQuery } from '../../schemas/helpers.js';
import { CreateWorkgroupBody, UpdateWorkgroupBody, WorkgroupParams, WorkgroupRecord } from '../../schemas/workgroup.js';
import { ok, versioned } from '../envelope.js';
import { requestContext } from '../request-context.js';
import { pageItems, replies } from '../responses.js';

const tags = ['workgroups'];

export function workgroupRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { workgroups } = services;

  api.post('/workgroups', {
    schema: { operationId: 'createWorkgroup', summary: 'Create a workgroup', tags, body: CreateWorkgroupBody, response: replies(WorkgroupRecord) },
    handler: async (request) => ok(request, await workgroups.create(request.principal, request.body, requestContext(request)), 'Workgroup created.'),
  });

  api.get('/workgroups', {
    config: { cacheable: true },
    schema: { operationId: 'listWorkgroups', summary: 'List workgroups', tags, querystring: ListQuery, response: replies(Type.Array(WorkgroupRecord)) },
    handler: async (request, reply) =>
      ok(request, pageItems(reply, await workgroups.list(request.principal, request.query, requestContext(request)))),
  });

  api.get('/workgroups/:workgroupID', {
    config: { cacheable: true },
    schema: { operationId: 'getWorkgroup', summary: 'Get workgroup details', tags, params: WorkgroupParams, response: replies(WorkgroupRecord) },
    handler: async (request, reply) => versioned(request, reply, await workgroups.get(request.principal, request.params.workgroupID, requestContext(request))),
  });

  api.put('/workgroups/:workgroupID', {
    schema: { operationId: 'updateWorkgroup', summary: 'Update a workgroup', tags, params: WorkgroupParams, body: UpdateWorkgroupBody, response: replies(WorkgroupRecord) },
    handler: async (request, reply) => versioned(request, reply, await workgroups.update(request.principal, request.params.workgroupID, request.body, requestContext(request)), 'Workgroup updated.'),
  });

  api.delete('/workgroups/:workgroupID', {
    schema: { operationId: 'deleteWorkgroup', summary: 'Delete an empty workgroup', tags, params: WorkgroupParams, response: replies(WorkgroupRecord) },
    handler: async (request) =>
      ok(request, await workgroups.delete(request.principal, request.params.workgroupID, requestContext(request)), 'Workgroup deleted.'),
  });
}
