import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import {
  CreateWebhookBody,
  WebhookDeliveriesQuery,
  WebhookDeliveryRecord,
  WebhookParams,
  WebhookRecord,
} from '../webhook.js';
import { endpoint } from './spec.js';

const tags = ['Webhooks'] as const;
const all = `${API_PREFIX}/webhooks` as const;
const one = `${all}/{webhook_id}` as const;
const admin = 'For org-admin keys.';

export const webhookEndpoints = {
  createWebhook: endpoint({
    method: 'POST',
    path: all,
    summary: 'Create a webhook',
    description:
      'The engine POSTs each event of the given types (default: all) to `url`, signed with `signing_secret`, ' +
      'which the Result carries this once; at least once, retried with back-off (see docs/events.md). ' +
      `Private, loopback and link-local targets are refused unless the server allows them. ${admin}`,
    tags,
    body: Ref(CreateWebhookBody),
    result: Ref(WebhookRecord),
    errors: [403],
    oneTimeSecrets: ['signing_secret'],
    message: 'Webhook created.',
    client: 'webhooks.create',
  }),
  listWebhooks: endpoint({
    method: 'GET',
    path: all,
    summary: 'List webhooks',
    description: `The organisation's webhooks, oldest first; never their secrets. ${admin}`,
    tags,
    result: Type.Array(Ref(WebhookRecord)),
    errors: [403],
    client: 'webhooks.list',
  }),
  getWebhook: endpoint({
    method: 'GET',
    path: one,
    summary: 'Get a webhook',
    description: `Never its secret. ${admin}`,
    tags,
    params: WebhookParams,
    result: Ref(WebhookRecord),
    errors: [403, 404],
    client: 'webhooks.get',
  }),
  deleteWebhook: endpoint({
    method: 'DELETE',
    path: one,
    summary: 'Delete a webhook',
    description: `Nothing more is sent to it, and its deliveries are forgotten. ${admin}`,
    tags,
    params: WebhookParams,
    result: Ref(WebhookRecord),
    errors: [403, 404],
    message: 'Webhook deleted.',
    client: 'webhooks.delete',
  }),
  listWebhookDeliveries: endpoint({
    method: 'GET',
    path: `${one}/deliveries`,
    summary: "List a webhook's deliveries",
    description:
      'Newest event first: the state of each (pending, delivered, failed), its attempts, the last status code ' +
      `or error and when it is tried next. With \`limit\`, a page at a time (X-Next-Cursor). ${admin}`,
    tags,
    params: WebhookParams,
    query: WebhookDeliveriesQuery,
    result: Type.Array(Ref(WebhookDeliveryRecord)),
    errors: [403, 404],
    paginated: true,
    client: 'webhooks.deliveries',
  }),
} as const;
