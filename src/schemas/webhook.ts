import { Type, type Static } from '@sinclair/typebox';
import { Body, ListQuery, StringEnum, Timestamp } from './helpers.js';
import { Component } from './component.js';
import { eventTypes } from './event.js';

export const webhookDeliveryStates = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof webhookDeliveryStates)[number];

const EventTypes = (description: string) =>
  Type.Array(StringEnum(eventTypes), { minItems: 1, maxItems: eventTypes.length, uniqueItems: true, description });

export const WebhookRecord = Component(
  'WebhookRecord',
  Type.Object(
    {
      webhook_id: Type.String(),
      url: Type.String(),
      event_types: Type.Optional(EventTypes('the types delivered; absent: every type')),
      org_id: Type.String(),
      created_by: Type.Optional(Type.String({ description: 'name of the key that created it' })),
      created_at: Timestamp,
      signing_secret: Type.Optional(
        Type.String({
          description: 'the key of X-Acacia-Signature; returned once, by the create call only (see docs/events.md)',
        }),
      ),
    },
    { description: "An endpoint the engine POSTs the organisation's events to." },
  ),
);
export type WebhookRecord = Static<typeof WebhookRecord>;

export const CreateWebhookBody = Component(
  'CreateWebhookBody',
  Body({
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'http or https, without credentials; private and loopback targets are refused by default',
    }),
    event_types: Type.Optional(EventTypes('default: every type')),
  }),
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const WebhookParams = Type.Object({ webhook_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const WebhookDeliveryRecord = Component(
  'WebhookDeliveryRecord',
  Type.Object(
    {
      webhook_id: Type.String(),
      event_id: Type.Integer(),
      event_type: StringEnum(eventTypes),
      state: StringEnum(webhookDeliveryStates),
      attempts: Type.Integer({ description: 'POSTs made so far (at most 8)' }),
      last_status_code: Type.Optional(Type.Integer({ description: "the receiver's status on the last attempt" })),
      last_error: Type.Optional(Type.String({ description: 'why the last attempt did not deliver' })),
      next_attempt_at: Type.Optional(
        Type.String({ description: 'RFC 3339 timestamp in UTC; pending: when it is tried' }),
      ),
      delivered_at: Type.Optional(Timestamp),
      created_at: Timestamp,
    },
    { description: 'One event for one webhook and how its delivery stands.' },
  ),
);
export type WebhookDeliveryRecord = Static<typeof WebhookDeliveryRecord>;

export const WebhookDeliveriesQuery = ListQuery;
