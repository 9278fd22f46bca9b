import type { Executor, Store } from '../store/store.js';
import {
  addToAccount,
  clearDelinquent,
  delinquentSince,
  findAccount,
  insertLedgerEntry,
} from '../store/repositories/billing.js';
import { findOrganisationById, findOrganisationByName } from '../store/repositories/organisations.js';
import { billingStatuses, type BillingAccount } from '../schemas/billing.js';
import type { ResourcePricing } from '../schemas/pricing.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import { AppError, invalid, notFound } from './errors.js';
import { authorizeBilling } from './permissions.js';
import type { Principal } from './principal.js';
import { fromMicros, HOUR_MS, resourcePricing, toMicros } from './pricing.js';
import { iso } from './time.js';

export interface BillingSettings {
  /** ACACIA_PAYMENT_PROCESSOR_URL: cards, invoices and sessions are disabled without it. */
  paymentProcessorUrl?: string;
  /** ACACIA_ASSISTANT_URL: the onboarding chat is disabled without it. */
  assistantUrl?: string;
}

/** The most credit one grant may add, in currency units: a typo must not become a fortune. */
export const MAX_GRANT = 1_000_000_000;

/** Credits, standing and prices (docs/billing.md); the meter in the engine charges usage. */
export class BillingService {
  private readonly sheet: ResourcePricing;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly settings: BillingSettings = {},
  ) {
    // The catalog does not change while the process runs.
    this.sheet = resourcePricing(catalog);
  }

  pricing(): ResourcePricing {
    return this.sheet;
  }

  async credit(p: Principal): Promise<number> {
    return (await this.account(p)).balance;
  }

  async status(p: Principal): Promise<number> {
    return (await this.account(p)).status;
  }

  async validation(p: Principal): Promise<boolean> {
    return (await this.account(p)).balance > 0;
  }

  async account(p: Principal): Promise<BillingAccount> {
    authorizeBilling(p, 'read');
    const db = this.store.db;
    const account = await findAccount(db, p.orgId);
    const since = await delinquentSince(db, p.orgId);
    const grace = this.catalog.billing.grace[p.tier] ?? this.catalog.billing.grace.free;
    const suspendAt = since === undefined ? undefined : since + grace.suspend_hours * HOUR_MS;
    const terminateAt = suspendAt === undefined ? undefined : suspendAt + grace.terminate_hours * HOUR_MS;
    const now = this.clock.now();
    const status =
      since === undefined
        ? billingStatuses.good
        : now >= terminateAt!
          ? billingStatuses.terminated
          : now >= suspendAt!
            ? billingStatuses.suspended
            : billingStatuses.delinquent;
    return {
      currency: this.catalog.billing.currency,
      balance: fromMicros(account?.balance_micros ?? 0),
      granted: fromMicros(account?.granted_micros ?? 0),
      charged: fromMicros(account?.charged_micros ?? 0),
      held_to_credit: (account?.granted_micros ?? 0) > 0,
      status,
      tier: p.tier,
      delinquent_since: since === undefined ? null : iso(since),
      suspend_at: suspendAt === undefined ? null : iso(suspendAt),
      terminate_at: terminateAt === undefined ? null : iso(terminateAt),
    };
  }

  /**
   * Adds credit to the organisation (`acacia admin credit add`); once its balance is above
   * zero its delinquency ends, and with it the grace periods' clock. Returns the balance.
   */
  async grant(orgName: string, amount: number, note?: string): Promise<{ org_id: string; balance: number }> {
    if (!Number.isFinite(amount) || amount <= 0 || amount > MAX_GRANT)
      throw invalid('amount', `must be a number above 0 and at most ${MAX_GRANT}`);
    const micros = toMicros(amount);
    if (micros <= 0) throw invalid('amount', 'must be at least one millionth of the currency unit');
    if (note !== undefined && note.length > 256) throw invalid('note', 'must be at most 256 characters long');
    const org = await findOrganisationByName(this.store.db, orgName);
    if (!org) throw notFound('org', `no organisation "${orgName}"`);
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      await addToAccount(tx.db, org.id, micros, now);
      await insertLedgerEntry(tx.db, {
        org_id: org.id,
        kind: 'grant',
        amount_micros: micros,
        ...(note !== undefined ? { note } : {}),
        created_at: now,
      });
      const balance = (await findAccount(tx.db, org.id))!.balance_micros;
      if (balance > 0) await clearDelinquent(tx, org.id);
      return { org_id: org.id, balance: fromMicros(balance) };
    });
  }

  /** The payment-processor seam: refused, naming its setting, until one is configured. */
  payments(p: Principal): never {
    authorizeBilling(p, 'manage');
    throw new AppError('not-configured', {
      field: 'ACACIA_PAYMENT_PROCESSOR_URL',
      reason: this.settings.paymentProcessorUrl
        ? 'forwarding to a payment processor is not available in this version'
        : 'no payment processor is configured: cards, invoices and checkout sessions are disabled',
    });
  }

  /** The assistant seam of the onboarding chat. */
  assistant(): never {
    throw new AppError('not-configured', {
      field: 'ACACIA_ASSISTANT_URL',
      reason: this.settings.assistantUrl
        ? 'forwarding to an assistant is not available in this version'
        : 'no assistant is configured: the onboarding chat is disabled',
    });
  }
}

/** Refuses new workspaces of an organisation out of credit (403 Forbidden naming delinquent_since). */
export async function refuseWhileDelinquent(db: Executor, orgId: string): Promise<void> {
  const since = await delinquentSince(db, orgId);
  if (since === undefined) return;
  const org = await findOrganisationById(db, orgId);
  throw new AppError('delinquent', {
    field: 'delinquent_since',
    reason:
      `organisation "${org?.name ?? orgId}" is out of credit since ${iso(since)}; ` + 'add credit to create workspaces',
  });
}
