import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import { listEveryProvider } from '../../domain/platform-admin.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';
import { pageItems } from '../responses.js';

/** The organisation, its users and roles, its keys at the real service's path, the platform admin's list. */
export function orgRoutes(api: FastifyInstance, services: Services): void {
  const { organisations, users, apiKeys } = services;
  serve(api, 'getOrganisation', async (request) => organisations.self(request.principal));
  serve(api, 'updateOrganisation', async (request) => organisations.update(request.principal, request.body));
  serve(api, 'getOrganisationQuota', async (request) => organisations.quota(request.principal));
  serve(api, 'listOrgApiKeys', async (request) => apiKeys.list(request.principal));
  serve(api, 'createOrgApiKey', async (request) => apiKeys.create(request.principal, request.body, request.tx));
  serve(api, 'deleteOrgApiKey', async (request) => apiKeys.revoke(request.principal, request.body.key_name));
  serve(api, 'listUsers', async (request, reply) =>
    pageItems(reply, await users.list(request.principal, request.query)),
  );
  serve(api, 'inviteUser', async (request) => users.invite(request.principal, request.body));
  serve(api, 'setUserRoles', async (request) =>
    users.setRoles(request.principal, request.params.userId, request.body.roles),
  );
  serve(api, 'updateUser', async (request) => users.update(request.principal, request.params.userId, request.body));
  serve(api, 'listEveryCloudProvider', async (request, reply) =>
    pageItems(reply, await listEveryProvider(services.store, request.principal, request.query)),
  );
}

/** Accepting an invitation: the invitee has no key yet; the token is the credential. */
export function invitationRoutes(scope: FastifyInstance, services: Services): void {
  serve(scope, 'acceptInvitation', async (request) => services.users.accept(request.body));
}
