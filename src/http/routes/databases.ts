import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { DatabaseParams, DatabaseRecord, RenameDatabaseBody } from '../../schemas/workspace.js';
import { WorkgroupParams } from '../../schemas/workgroup.js';
import { ok, versioned } from '../envelope.js';
import { requestContext } from '../request-context.js';
import { replies } from '../responses.js';

const tags = ['databases'];
const base = '/workgroups/:workgroupID/databases';

export function databaseRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { databases } = services;

  api.get(base, {
    config: { cacheable: true },
    schema: { operationId: 'listDatabases', summary: 'List the databases of a workgroup', tags, params: WorkgroupParams, response: replies(Type.Array(DatabaseRecord)) },
    handler: async (request) => ok(request, await databases.list(request.principal, request.params.workgroupID, requestContext(request))),
  });

  api.get(`${base}/:databaseID`, {
    config: { cacheable: true },
    schema: { operationId: 'getDatabase', summary: 'Get a database', tags, params: DatabaseParams, response: replies(DatabaseRecord) },
    handler: async (request, reply) => versioned(request, reply, await databases.get(request.principal, request.params.workgroupID, request.params.databaseID, requestContext(request))),
  });

  api.put(`${base}/:databaseID`, {
    schema: { operationId: 'renameDatabase', summary: 'Rename a database', tags, params: DatabaseParams, body: RenameDatabaseBody, response: replies(DatabaseRecord) },
    handler: async (request, reply) => versioned(request, reply, await databases.rename(request.principal, request.params.workgroupID, request.params.databaseID, request.body, requestContext(request)), 'Database renamed.'),
  });

  api.delete(`${base}/:databaseID`, {
    schema: { operationId: 'deleteDatabase', summary: 'Delete a database without workspaces', tags, params: DatabaseParams, response: replies(DatabaseRecord) },
    handler: async (request) =>
      ok(request, await databases.delete(request.principal, request.params.workgroupID, request.params.databaseID, requestContext(request)), 'Database deleted.'),
  });
}
