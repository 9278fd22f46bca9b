import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function dbUserRoutes(api: FastifyInstance, services: Services): void {
  const { dbUsers } = services;
  serve(api, 'createDbUser', async ({ principal, params, body, tx }) =>
    dbUsers.create(principal, params.workgroupID, params.workspaceID, body, tx),
  );
  serve(api, 'listDbUsers', async ({ principal, params }) =>
    dbUsers.list(principal, params.workgroupID, params.workspaceID),
  );
  serve(api, 'updateDbUser', async ({ principal, params, body }) =>
    dbUsers.update(principal, params.workgroupID, params.workspaceID, body),
  );
  serve(api, 'deleteDbUser', async ({ principal, params, body }) =>
    dbUsers.delete(principal, params.workgroupID, params.workspaceID, body),
  );
}
