import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { requestContext } from '../request-context.js';
import { pageItems } from '../responses.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

/** Operations 13–17 with the contract's own path segments: addons, add-ons and installed-addons. */
export function addonRoutes(api: FastifyInstance, services: Services): void {
  const { addons, addonConfigs, addonRequests } = services;
  serve(api, 'getAddonsMeta', async () => addons.meta());
  serve(api, 'requestAddon', async (request) => addonRequests.request(request.principal, request.body, request.tx));
  serve(api, 'listAddonRequests', async (request, reply) =>
    pageItems(reply, await addonRequests.list(request.principal, request.query)),
  );
  serve(api, 'listAddons', async (request) => addons.listCatalog(request.principal));
  serve(api, 'installAddon', async (request) =>
    addons.install(request.principal, request.params.addonsID, request.query.enable, request.tx),
  );
  serve(api, 'listAddonWorkspaces', async (request) =>
    addons.workspaces(request.principal, request.params.addonsID, requestContext(request)),
  );
  serve(api, 'listInstalledAddons', async (request) => addons.listInstalled(request.principal));
  serve(api, 'getInstalledAddon', async (request) =>
    addons.getInstalled(request.principal, request.params.installedAddonsID),
  );
  serve(api, 'createAddonConfig', async (request) =>
    addonConfigs.create(request.principal, request.params.installedAddonsID, request.body, request.tx),
  );
  serve(api, 'listAddonConfigs', async (request) =>
    addonConfigs.listByName(request.principal, request.params.installedAddonsID, request.params.configName),
  );
  serve(api, 'updateAddonConfig', async (request) =>
    addonConfigs.update(
      request.principal,
      request.params.installedAddonsID,
      request.params.configID,
      request.body,
      request.tx,
    ),
  );
  serve(api, 'deleteAddonConfig', async (request) =>
    addonConfigs.delete(request.principal, request.params.installedAddonsID, request.params.configID),
  );
}
