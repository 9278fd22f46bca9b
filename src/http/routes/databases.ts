import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { requestContext } from '../request-context.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function databaseRoutes(api: FastifyInstance, services: Services): void {
  const { databases } = services;
  serve(api, 'listDatabases', async (request) =>
    databases.list(request.principal, request.params.workgroupID, requestContext(request)),
  );
  serve(api, 'getDatabase', async (request) => {
    const { workgroupID, databaseID } = request.params;
    return databases.get(request.principal, workgroupID, databaseID, requestContext(request));
  });
  serve(api, 'renameDatabase', async (request) => {
    const { workgroupID, databaseID } = request.params;
    return databases.rename(request.principal, workgroupID, databaseID, request.body, requestContext(request));
  });
  serve(api, 'deleteDatabase', async (request) => {
    const { workgroupID, databaseID } = request.params;
    return databases.delete(request.principal, workgroupID, databaseID, requestContext(request));
  });
}
