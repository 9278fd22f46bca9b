import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';
import type { CheckedWebhook } from '../../domain/webhooks.js';
import { pageItems } from '../responses.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

export function webhookRoutes(api: FastifyInstance, services: Services): void {
  const { webhooks } = services;
  // The target's DNS lookup is done before the write, outside any transaction.
  serve<'createWebhook', CheckedWebhook>(
    api,
    'createWebhook',
    async (request, _reply, checked) => webhooks.create(checked, request.tx),
    {
      prepare: (request) => webhooks.check(request.principal, request.body),
    },
  );
  serve(api, 'listWebhooks', async (request) => webhooks.list(request.principal));
  serve(api, 'getWebhook', async (request) => webhooks.get(request.principal, request.params.webhook_id));
  serve(api, 'deleteWebhook', async (request) => webhooks.delete(request.principal, request.params.webhook_id));
  serve(api, 'listWebhookDeliveries', async (request, reply) =>
    pageItems(reply, await webhooks.deliveries(request.principal, request.params.webhook_id, request.query)),
  );
}
