import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { CreateWorkspaceBody, UpdateWorkspaceBody, WorkspaceParams, WorkspaceRecord } from '../../schemas/workspace.js';
import { WorkgroupParams } from '../../schemas/workgroup.js';
import { ok, versioned } from '../envelope.js';
import { requestContext } from '../request-context.js';
import { replies } from '../responses.js';

const tags = ['workspaces'];
const base = '/workgroups/:workgroupID/workspaces';

export function workspaceRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { workspaces } = services;

  api.post(base, {
    schema: { operationId: 'createWorkspace', summary: 'Create a workspace (and its database, unless tg_database_id names one)', tags, params: WorkgroupParams, body: CreateWorkspaceBody, response: replies(WorkspaceRecord) },
    handler: async (request) =>
      ok(request, await workspaces.create(request.principal, request.params.workgroupID, request.body, requestContext(request)), 'Workspace is being created.'),
  });

  api.get(base, {
    config: { cacheable: true },
    schema: { operationId: 'listWorkspaces', summary: 'List the workspaces of a workgroup', tags, params: WorkgroupParams, response: replies(Type.Array(WorkspaceRecord)) },
    handler: async (request) => ok(request, await workspaces.list(request.principal, request.params.workgroupID, requestContext(request))),
  });

  api.get(`${base}/:workspaceID`, {
    config: { cacheable: true },
    schema: { operationId: 'getWorkspace', summary: 'Get a workspace', tags, params: WorkspaceParams, response: replies(WorkspaceRecord) },
    handler: async (request, reply) => versioned(request, reply, await workspaces.get(request.principal, request.params.workgroupID, request.params.workspaceID, requestContext(request))),
  });

  api.put(`${base}/:workspaceID`, {
    schema: { operationId: 'updateWorkspace', summary: 'Update a workspace (settings, size, HA, version, pause)', tags, params: WorkspaceParams, body: UpdateWorkspaceBody, response: replies(WorkspaceRecord) },
    handler: async (request, reply) => {
      const { workgroupID, workspaceID } = request.params;
      return versioned(request, reply, await workspaces.update(request.principal, workgroupID, workspaceID, request.body, requestContext(request)), 'Workspace updated.');
    },
  });

  api.delete(`${base}/:workspaceID`, {
    schema: { operationId: 'deleteWorkspace', summary: 'Delete a workspace', tags, params: WorkspaceParams, response: replies(WorkspaceRecord) },
    handler: async (request) =>
      ok(request, await workspaces.delete(request.principal, request.params.workgroupID, request.params.workspaceID, requestContext(request)), 'Workspace is being deleted.'),
  });

  for (const action of ['pause', 'resume', 'refresh'] as const) {
    api.post(`${base}/:workspaceID/${action}`, {
      schema: { operationId: `${action}Workspace`, summary: `${action[0]!.toUpperCase()}${action.slice(1)} a workspace`, tags, params: WorkspaceParams, response: replies(WorkspaceRecord) },
      handler: async (request) =>
        ok(request, await workspaces.act(request.principal, request.params.workgroupID, request.params.workspaceID, action, requestContext(request))),
    });
  }
}
