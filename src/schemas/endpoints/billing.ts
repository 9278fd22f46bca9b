import { Type } from '@sinclair/typebox';
import { API_PREFIX } from '../envelope.js';
import { Ref } from '../component.js';
import { BillingAccount, CardParams, ChatRequest, InvoiceQuery } from '../billing.js';
import { ResourcePricing } from '../pricing.js';
import { WorkspaceParams } from '../workspace.js';
import { endpoint } from './spec.js';

const tags = ['Billing'] as const;
const base = `${API_PREFIX}/billing` as const;
const admin = 'For org-admin keys.';
const seam =
  'Payment processing is not part of Acacia: until ACACIA_PAYMENT_PROCESSOR_URL is set this answers 501 ' +
  'API-Disabled naming that setting (docs/billing.md).';

export const billingEndpoints = {
  getResourcePricing: endpoint({
    method: 'GET',
    path: `${base}/resource-pricing`,
    summary: 'The price sheet',
    description:
      'Compute per size, region and HA per hour, storage per GiB-month per region, and the priced add-ons per ' +
      'size and region (Insights: 10% of compute), from the catalog (ACACIA_CONFIG `billing`). For any role.',
    tags,
    result: Ref(ResourcePricing),
    errors: [],
    client: 'billing.pricing',
  }),
  getCredit: endpoint({
    method: 'GET',
    path: `${base}/credit`,
    summary: "The organisation's credit balance",
    description: `Credit left, in currency units: grants less metered usage (docs/billing.md). ${admin}`,
    tags,
    result: Type.Number(),
    errors: [403],
    client: 'billing.credit',
  }),
  getBillingStatus: endpoint({
    method: 'GET',
    path: `${base}/status`,
    summary: "The organisation's billing standing",
    description:
      `0 in good standing, 1 out of credit (delinquent), 2 past the first grace period (workspaces paused), ` +
      `3 past the second (workspaces deleted). ${admin}`,
    tags,
    result: Type.Integer({ minimum: 0, maximum: 3 }),
    errors: [403],
    client: 'billing.status',
  }),
  getBillingValidation: endpoint({
    method: 'GET',
    path: `${base}/validation`,
    summary: 'Whether usage can be charged',
    description: `True while credit remains. ${admin}`,
    tags,
    result: Type.Boolean(),
    errors: [403],
    client: 'billing.validation',
  }),
  getBillingAccount: endpoint({
    method: 'GET',
    path: `${base}/account`,
    summary: 'The credit account, and where the grace periods stand',
    description:
      'Extension: balance, grants and charges, the tier, `delinquent_since` and when the workspaces are paused ' +
      `and deleted if no credit is added. ${admin}`,
    tags,
    result: Ref(BillingAccount),
    errors: [403],
    client: 'billing.account',
  }),
  getCreditCards: endpoint({
    method: 'GET',
    path: `${base}/credit-cards`,
    summary: 'The payment customer and its cards',
    description: `${seam} ${admin}`,
    tags,
    result: Type.Unknown(),
    errors: [403, 501],
    client: 'billing.cards',
  }),
  deleteCreditCard: endpoint({
    method: 'DELETE',
    path: `${base}/credit-cards/{cardID}`,
    summary: 'Remove a card',
    description: `${seam} ${admin}`,
    tags,
    params: CardParams,
    result: Type.String(),
    errors: [403, 501],
    client: 'billing.deleteCard',
  }),
  setDefaultCreditCard: endpoint({
    method: 'POST',
    path: `${base}/credit-cards/{cardID}`,
    summary: 'Make a card the default',
    description: `${seam} ${admin}`,
    tags,
    params: CardParams,
    result: Type.String(),
    errors: [403, 501],
    client: 'billing.setDefaultCard',
  }),
  payInvoice: endpoint({
    method: 'POST',
    path: `${base}/payment/invoice`,
    summary: 'Pay an invoice',
    description: `${seam} ${admin}`,
    tags,
    query: InvoiceQuery,
    result: Type.Boolean(),
    errors: [403, 501],
    client: 'billing.payInvoice',
  }),
  createBillingSession: endpoint({
    method: 'POST',
    path: `${base}/session`,
    summary: "A session in the payment processor's billing manager",
    description: `${seam} ${admin}`,
    tags,
    result: Type.String(),
    errors: [403, 501],
    client: 'billing.session',
  }),
  onboardingChat: endpoint({
    method: 'POST',
    path: `${API_PREFIX}/workgroups/{workgroupID}/workspaces/{workspaceID}/onboarding/chat`,
    summary: 'The onboarding assistant',
    description:
      'Needs the `ThreadID` header (or `thread_id` in the body). No assistant is part of Acacia: until ' +
      'ACACIA_ASSISTANT_URL is set this ' +
      'answers 501 API-Disabled naming that setting, after the workspace is found (docs/billing.md).',
    tags,
    params: WorkspaceParams,
    body: Ref(ChatRequest),
    result: Type.String(),
    errors: [404, 501],
    client: 'workspaces.onboardingChat',
  }),
} as const;
