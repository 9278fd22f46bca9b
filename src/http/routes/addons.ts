import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { requestContext } from '../request-context.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

/** Operations 13–17 with the contract's own path segments: addons, add-ons and installed-addons. */
export function addonRoutes(api: FastifyInstance, services: Services): void {
  const { addons, addonConfigs } = services;
  serve(api, 'listAddons', async (request) => addons.listCatalog(request.principal));
  serve(api, 'installAddon', async (request) =>
    addons.install(request.principal, request.params.addonsID, request.query.enable, request.tx),
  );
  serve(api, 'listAddonWorkspaces', async (request) =>
    addons.workspaces(request.principal, request.params.addonsID, requestContext(request)),
  );
  serve(api, 'listInstalledAddons', async (request) => addons.listInstalled(request.principal));
  serve(api, 'createAddonConfig', async (request) =>
    addonConfigs.create(request.principal, request.params.installedAddonsID, request.body, request.tx),
  );
  serve(api, 'listAddonConfigs', async (request) =>
    addonConfigs.listByName(request.principal, request.params.installedAddonsID, request.params.configName),
  );
  serve(api, 'deleteAddonConfig', async (request) =>
    addonConfigs.delete(request.principal, request.params.installedAddonsID, request.params.configID),
  );
}
