import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from './helpers.js';
import { Component } from './component.js';

/** The organisation's standing as billing/status answers it (the real service's Result is a number). */
export const billingStatuses = {
  /** Credit remains, or the organisation was never held to credit. */
  good: 0,
  /** Out of credit, within the first grace period: workspaces run. */
  delinquent: 1,
  /** Past the first grace period: workspaces are paused. */
  suspended: 2,
  /** Past the second: workspaces are deleted. */
  terminated: 3,
} as const;

/** Acacia's own view of the account: the balance, what made it, and where the grace periods stand. */
export const BillingAccount = Component(
  'BillingAccount',
  Type.Object({
    currency: Type.String(),
    balance: Type.Number({ description: 'credit left, in currency units (millionths exact)' }),
    granted: Type.Number({ description: 'credit ever granted' }),
    charged: Type.Number({ description: 'usage ever charged' }),
    held_to_credit: Type.Boolean({ description: 'credit was granted once: running out of it has effects' }),
    status: Type.Integer({ description: '0 good standing, 1 delinquent, 2 suspended, 3 terminated (billing/status)' }),
    tier: Type.String(),
    delinquent_since: Nullable(Timestamp),
    suspend_at: Nullable(Timestamp),
    terminate_at: Nullable(Timestamp),
  }),
);
export type BillingAccount = Static<typeof BillingAccount>;

export const CardParams = Type.Object({ cardID: Type.String({ minLength: 1, maxLength: 128 }) });

export const InvoiceQuery = Type.Object({
  year: Type.Integer({ minimum: 2000, maximum: 9999 }),
  month: Type.Integer({ minimum: 1, maximum: 12 }),
  day: Type.Integer({ minimum: 1, maximum: 31 }),
  productPlanId: Type.String({ minLength: 1, maxLength: 128 }),
});

/** POST …/onboarding/chat (the real service's ServerMCPChatRequest). */
export const ChatRequest = Component(
  'ServerMCPChatRequest',
  Type.Object(
    {
      message: Type.Optional(Type.String({ maxLength: 32_768, description: 'what the user asks' })),
      thread_id: Type.Optional(Type.String({ maxLength: 128 })),
      type: Type.Optional(Type.String({ maxLength: 64 })),
      workspace_id: Type.Optional(Type.String({ maxLength: 64 })),
      authorization: Type.Optional(Type.String({ maxLength: 4096 })),
      debug: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
);
