import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { requestContext } from '../request-context.js';
import { pageItems } from '../responses.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function workgroupRoutes(api: FastifyInstance, services: Services): void {
  const { workgroups, pool } = services;
  serve(api, 'createWorkgroup', async (request) =>
    workgroups.create(request.principal, request.body, requestContext(request), request.tx),
  );
  serve(api, 'listWorkgroups', async (request, reply) =>
    pageItems(reply, await workgroups.list(request.principal, request.query, requestContext(request))),
  );
  serve(
    api,
    'getWorkgroup',
    async (request) => workgroups.get(request.principal, request.params.workgroupID, requestContext(request)),
    { probe: async (request) => workgroups.currentVersion(request.principal, request.params.workgroupID) },
  );
  serve(api, 'updateWorkgroup', async (request) =>
    workgroups.update(request.principal, request.params.workgroupID, request.body, requestContext(request)),
  );
  // The real service answers the deleted workgroup's id.
  serve(
    api,
    'deleteWorkgroup',
    async (request) =>
      (await workgroups.delete(request.principal, request.params.workgroupID, requestContext(request))).workgroup_id,
  );
  serve(api, 'acquirePooledWorkgroup', async (request) => pool.acquire(request.principal, requestContext(request)));
}
