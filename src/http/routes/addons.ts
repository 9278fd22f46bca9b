import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import {
  AddonConfigIdParams,
  AddonConfigNameParams,
  AddonConfigRecord,
  AddonParams,
  AddonRecord,
  CreateAddonConfigBody,
  InstallQuery,
  InstalledAddonParams,
  InstalledAddonRecord,
} from '../../schemas/addon.js';
import { WorkspaceRecord } from '../../schemas/workspace.js';
import { ok } from '../envelope.js';
import { requestContext } from '../request-context.js';
import { replies } from '../responses.js';

const tags = ['add-ons'];

/** Operations 13–17 with the contract's own path segments: addons, add-ons and installed-addons. */
export function addonRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { addons, addonConfigs } = services;

  api.get('/addons', {
    schema: { operationId: 'listAddons', summary: "The add-on catalog with the organisation's install state", tags, response: replies(Type.Array(AddonRecord)) },
    handler: async (request) => ok(request, await addons.listCatalog(request.principal)),
  });

  api.post('/addons/:addonsID/install', {
    schema: {
      operationId: 'installAddon', summary: 'Install an add-on, or enable or disable it (enable=true|false)', tags,
      params: AddonParams, querystring: InstallQuery, response: replies(InstalledAddonRecord),
    },
    handler: async (request) => ok(request, await addons.install(request.principal, request.params.addonsID, request.query.enable), 'Add-on installed.'),
  });

  api.get('/addons/:addonsID/workspaces', {
    schema: { operationId: 'listAddonWorkspaces', summary: 'Workspaces that have the add-on enabled', tags, params: AddonParams, response: replies(Type.Array(WorkspaceRecord)) },
    handler: async (request) => ok(request, await addons.workspaces(request.principal, request.params.addonsID, requestContext(request))),
  });

  api.get('/installed-addons', {
    schema: { operationId: 'listInstalledAddons', summary: "The organisation's installed add-ons", tags, response: replies(Type.Array(InstalledAddonRecord)) },
    handler: async (request) => ok(request, await addons.listInstalled(request.principal)),
  });

  api.post('/add-ons/:installedAddonsID/configs', {
    schema: {
      operationId: 'createAddonConfig', summary: 'Create an add-on configuration; Result is its id', tags,
      params: InstalledAddonParams, body: CreateAddonConfigBody, response: replies(Type.String()),
    },
    handler: async (request) => ok(request, await addonConfigs.create(request.principal, request.params.installedAddonsID, request.body), 'Configuration created.'),
  });

  api.get('/installed-addons/:installedAddonsID/configs/:configName', {
    schema: { operationId: 'listAddonConfigs', summary: 'Configurations of the given name', tags, params: AddonConfigNameParams, response: replies(Type.Array(AddonConfigRecord)) },
    handler: async (request) => ok(request, await addonConfigs.listByName(request.principal, request.params.installedAddonsID, request.params.configName)),
  });

  api.delete('/add-ons/:installedAddonsID/configs/:configID', {
    schema: { operationId: 'deleteAddonConfig', summary: 'Delete an add-on configuration', tags, params: AddonConfigIdParams, response: replies(Type.Boolean()) },
    handler: async (request) => ok(request, await addonConfigs.delete(request.principal, request.params.installedAddonsID, request.params.configID), 'Configuration deleted.'),
  });
}
