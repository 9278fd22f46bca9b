import type { FastifyInstance } from 'fastify';
import { describeCatalog } from '../../domain/meta.js';
import type { Services } from '../../domain/services.js';
import { requestContext } from '../request-context.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function workspaceRoutes(api: FastifyInstance, services: Services): void {
  const { workspaces } = services;
  serve(api, 'createWorkspace', async (request) =>
    workspaces.create(request.principal, request.params.workgroupID, request.body, requestContext(request), request.tx),
  );
  serve(api, 'listWorkspaces', async (request) =>
    workspaces.list(request.principal, request.params.workgroupID, requestContext(request)),
  );
  serve(
    api,
    'getWorkspace',
    async (request) => {
      const { workgroupID, workspaceID } = request.params;
      return workspaces.get(request.principal, workgroupID, workspaceID, requestContext(request));
    },
    {
      probe: async (request) =>
        workspaces.currentVersion(request.principal, request.params.workgroupID, request.params.workspaceID),
    },
  );
  serve(api, 'updateWorkspace', async (request) => {
    const { workgroupID, workspaceID } = request.params;
    return workspaces.update(request.principal, workgroupID, workspaceID, request.body, requestContext(request));
  });
  serve(api, 'deleteWorkspace', async (request) => {
    const { workgroupID, workspaceID } = request.params;
    return workspaces.delete(request.principal, workgroupID, workspaceID, requestContext(request));
  });
  for (const action of ['pause', 'resume', 'refresh'] as const) {
    serve(api, `${action}Workspace`, async (request) => {
      const { workgroupID, workspaceID } = request.params;
      return workspaces.act(request.principal, workgroupID, workspaceID, action, requestContext(request), request.tx);
    });
  }
  serve(api, 'getWorkspaceMeta', async (request) =>
    describeCatalog(services.catalog, request.principal, services.clock.now(), request.query.upgrade === 'true'),
  );
}
