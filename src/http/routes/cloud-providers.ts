import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { requestContext } from '../request-context.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

/** Public providers for everyone, BYOC (operations 18–21 and delete) for enterprise organisations. */
export function cloudProviderRoutes(api: FastifyInstance, services: Services): void {
  const { cloudProviders } = services;
  serve(api, 'createCloudProvider', async (request) =>
    cloudProviders.create(request.principal, request.body, request.tx),
  );
  // Validation asks the account whether the role can be assumed and writes nothing: all of it
  // is done before the request's transaction (an idempotent POST's) opens.
  serve<'validateCloudProvider', string>(api, 'validateCloudProvider', async (_request, _reply, answer) => answer, {
    prepare: (request) => cloudProviders.validate(request.principal, request.body),
  });
  serve(api, 'listCloudProviders', async (request) => cloudProviders.list(request.principal));
  serve(api, 'listPublicCloudProviders', async () => cloudProviders.listPublic());
  serve(api, 'getCloudProvider', async (request) =>
    cloudProviders.get(request.principal, request.params.cloudProviderID),
  );
  serve(api, 'updateCloudProvider', async (request) =>
    cloudProviders.update(
      request.principal,
      request.params.cloudProviderID,
      request.body,
      requestContext(request).ifMatch,
    ),
  );
  serve(api, 'upgradeCloudProvider', async (request) =>
    cloudProviders.upgrade(
      request.principal,
      request.params.cloudProviderID,
      request.body,
      requestContext(request).ifMatch,
    ),
  );
  serve(api, 'deleteCloudProvider', async (request) =>
    cloudProviders.delete(request.principal, request.params.cloudProviderID, requestContext(request).ifMatch),
  );
}
