import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { requestContext } from '../request-context.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function allowListRoutes(api: FastifyInstance, services: Services): void {
  const { allowList } = services;
  serve(api, 'addAllowedIp', async (request) =>
    allowList.create(request.principal, request.params.workgroupID, request.body, request.tx),
  );
  serve(api, 'listAllowedIps', async (request) => allowList.list(request.principal, request.params.workgroupID));
  // Static segments: find-my-way matches them before the `{id}` routes.
  serve(api, 'checkCurrentIp', async (request) =>
    allowList.current(request.principal, request.params.workgroupID, requestContext(request)),
  );
  for (const action of ['enable', 'disable'] as const) {
    // The real service answers a string: the workgroup's id.
    serve(
      api,
      `${action}AllowList`,
      async (request) =>
        (
          await allowList.setEnabled(
            request.principal,
            request.params.workgroupID,
            action === 'enable',
            requestContext(request),
          )
        ).workgroup_id,
    );
  }
  serve(api, 'updateAllowedIp', async (request) =>
    allowList.update(request.principal, request.params.workgroupID, request.params.id, request.body),
  );
  serve(
    api,
    'deleteAllowedIp',
    async (request) => (await allowList.delete(request.principal, request.params.workgroupID, request.params.id)).id,
  );
}
