import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { ApiKeyParams, ApiKeyRecord, CreateApiKeyBody } from '../../schemas/api-key.js';
import { ok } from '../envelope.js';
import { replies } from '../responses.js';

const tags = ['api keys'];

export function apiKeyRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { apiKeys } = services;

  api.post('/apikeys', {
    schema: { operationId: 'createApiKey', summary: 'Create an API key (the plaintext is returned once)', tags, body: CreateApiKeyBody, response: replies(ApiKeyRecord) },
    handler: async (request) => ok(request, await apiKeys.create(request.principal, request.body), 'API key created.'),
  });

  api.get('/apikeys', {
    schema: { operationId: 'listApiKeys', summary: 'List active API keys', tags, response: replies(Type.Array(ApiKeyRecord)) },
    handler: async (request) => ok(request, await apiKeys.list(request.principal)),
  });

  api.delete('/apikeys/:key_name', {
    schema: { operationId: 'revokeApiKey', summary: 'Revoke an API key', tags, params: ApiKeyParams, response: replies(ApiKeyRecord) },
    handler: async (request) => ok(request, await apiKeys.revoke(request.principal, request.params.key_name), 'API key revoked.'),
  });
}
