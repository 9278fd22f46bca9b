import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { requestContext } from '../request-context.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function upgradeRoutes(api: FastifyInstance, services: Services): void {
  const { upgrades } = services;
  serve(api, 'upgradeWorkspace', async (request) => {
    const { workgroupID, workspaceID } = request.params;
    return upgrades.upgrade(
      request.principal,
      workgroupID,
      workspaceID,
      request.body,
      requestContext(request),
      request.tx,
    );
  });
  serve(api, 'listScheduledUpgrades', async (request) => upgrades.nextWindow(request.principal));
}
