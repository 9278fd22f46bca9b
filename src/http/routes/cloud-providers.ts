import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import {
  CloudProviderParams,
  CloudProviderRecord,
  CreateCloudProviderBody,
  UpdateCloudProviderBody,
  UpgradeCloudProviderBody,
  ValidateCloudProviderBody,
} from '../../schemas/cloud-provider.js';
import { ok, versioned } from '../envelope.js';
import { requestContext } from '../request-context.js';
import { replies } from '../responses.js';

const tags = ['cloud providers'];

/** Public providers for everyone, BYOC (operations 18–21 and delete) for enterprise organisations. */
export function cloudProviderRoutes(scope: FastifyInstance, services: Services): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { cloudProviders } = services;

  api.post('/cloud-providers', {
    schema: { operationId: 'createCloudProvider', summary: 'Register a customer-owned cloud account (BYOC); provisioning runs asynchronously', tags, body: CreateCloudProviderBody, response: replies(CloudProviderRecord) },
    handler: async (request) => ok(request, await cloudProviders.create(request.principal, request.body), 'Cloud provider registered.'),
  });

  api.post('/cloud-providers/validate', {
    schema: { operationId: 'validateCloudProvider', summary: 'Check a BYOC registration without creating anything', tags, body: ValidateCloudProviderBody, response: replies(Type.String()) },
    handler: async (request) => ok(request, await cloudProviders.validate(request.principal, request.body)),
  });

  api.get('/cloud-providers', {
    schema: { operationId: 'listCloudProviders', summary: "List the public cloud providers and the organisation's own", tags, response: replies(Type.Array(CloudProviderRecord)) },
    handler: async (request) => ok(request, await cloudProviders.list(request.principal)),
  });

  api.get('/cloud-providers/:cloudProviderID', {
    schema: { operationId: 'getCloudProvider', summary: 'Get a cloud provider', tags, params: CloudProviderParams, response: replies(CloudProviderRecord) },
    handler: async (request, reply) => versioned(request, reply, await cloudProviders.get(request.principal, request.params.cloudProviderID)),
  });

  api.put('/cloud-providers/:cloudProviderID', {
    schema: { operationId: 'updateCloudProvider', summary: 'Rename a cloud provider or record its version', tags, params: CloudProviderParams, body: UpdateCloudProviderBody, response: replies(CloudProviderRecord) },
    handler: async (request, reply) => versioned(request, reply, await cloudProviders.update(request.principal, request.params.cloudProviderID, request.body, requestContext(request).ifMatch), 'Cloud provider updated.'),
  });

  api.put('/cloud-providers/:cloudProviderID/upgrade', {
    schema: {
      operationId: 'upgradeCloudProvider', summary: 'Upgrade components, node groups and log types; Result is the operation id', tags,
      params: CloudProviderParams, body: UpgradeCloudProviderBody, response: replies(Type.String()),
    },
    handler: async (request) =>
      ok(request, await cloudProviders.upgrade(request.principal, request.params.cloudProviderID, request.body, requestContext(request).ifMatch), 'Upgrade started.'),
  });

  api.delete('/cloud-providers/:cloudProviderID', {
    schema: { operationId: 'deleteCloudProvider', summary: 'Delete a private cloud provider no workgroup uses', tags, params: CloudProviderParams, response: replies(CloudProviderRecord) },
    handler: async (request) =>
      ok(request, await cloudProviders.delete(request.principal, request.params.cloudProviderID, requestContext(request).ifMatch), 'Cloud provider deleted.'),
  });
}
