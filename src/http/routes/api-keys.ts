import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function apiKeyRoutes(api: FastifyInstance, services: Services): void {
  const { apiKeys } = services;
  serve(api, 'createApiKey', async (request) => apiKeys.create(request.principal, request.body, request.tx));
  serve(api, 'listApiKeys', async (request) => apiKeys.list(request.principal));
  serve(api, 'getCurrentApiKey', async (request) => apiKeys.current(request.principal));
  serve(api, 'deleteApiKey', async (request) => apiKeys.revoke(request.principal, request.body.key_name));
  serve(api, 'revokeApiKey', async (request) => apiKeys.revoke(request.principal, request.params.key_name));
}
