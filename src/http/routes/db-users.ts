import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { DbUserBody, DbUserRecord, DeleteDbUserBody } from '../../schemas/db-user.js';
import { WorkspaceParams } from '../../schemas/workspace.js';
import { ok } from '../envelope.js';
import { replies } from '../responses.js';

const tags = ['db users'];
const path = '/workgroups/:workgroupID/workspaces/:workspaceID/dbuser';

export function dbUserRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { dbUsers } = services;

  api.post(path, {
    schema: { operationId: 'createDbUser', summary: 'Create a database user of the workspace', tags, params: WorkspaceParams, body: DbUserBody, response: replies(DbUserRecord) },
    handler: async (request) =>
      ok(request, await dbUsers.create(request.principal, request.params.workgroupID, request.params.workspaceID, request.body), 'Database user created.'),
  });

  api.get(path, {
    schema: { operationId: 'listDbUsers', summary: 'List the database users of the workspace (never their passwords)', tags, params: WorkspaceParams, response: replies(Type.Array(DbUserRecord)) },
    handler: async (request) => ok(request, await dbUsers.list(request.principal, request.params.workgroupID, request.params.workspaceID)),
  });

  api.put(path, {
    schema: { operationId: 'updateDbUser', summary: "Change a database user's password", tags, params: WorkspaceParams, body: DbUserBody, response: replies(DbUserRecord) },
    handler: async (request) =>
      ok(request, await dbUsers.update(request.principal, request.params.workgroupID, request.params.workspaceID, request.body), 'Password changed.'),
  });

  api.delete(path, {
    schema: { operationId: 'deleteDbUser', summary: 'Delete a database user (body: {username})', tags, params: WorkspaceParams, body: DeleteDbUserBody, response: replies(DbUserRecord) },
    handler: async (request) =>
      ok(request, await dbUsers.delete(request.principal, request.params.workgroupID, request.params.workspaceID, request.body), 'Database user deleted.'),
  });
}
