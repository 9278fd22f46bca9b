import { createHmac } from 'node:crypto';
import type { Store, Tx } from '../store/store.js';
import * as hooksRepo from '../store/repositories/webhooks.js';
import { lockRow } from '../store/repositories/row-locks.js';
import { toPage, type Page, type PageResult } from '../store/pagination.js';
import type { CreateWebhookBody, WebhookDeliveryRecord, WebhookRecord } from '../schemas/webhook.js';
import type { EventType } from '../schemas/event.js';
import type { Catalog } from './catalog.js';
import type { Clock } from './clock.js';
import { notFound } from './errors.js';
import { newId } from './ids.js';
import { resumeAfter } from './paging.js';
import { authorize } from './permissions.js';
import type { Principal } from './principal.js';
import { checkCount } from './quotas.js';
import { iso } from './time.js';
import { checkTarget, webhookUrl, type ResolveHost } from './webhook-targets.js';

/** The installation key's file in the data directory when ACACIA_WEBHOOK_KEY is not set. */
export const WEBHOOK_KEY_FILE = 'webhook.key';

/** A delivery is given up after this many POSTs. */
export const MAX_DELIVERY_ATTEMPTS = 8;

export interface WebhookSettings {
  /** ACACIA_WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** The installation key signing secrets are derived from (read when first needed). */
  key: () => Buffer;
  /** How a target's host name is resolved (resolveByDns but in tests). */
  resolve: ResolveHost;
}

/** A webhook's signing secret: derived from the installation key, never stored. */
export function webhookSecret(key: Buffer, webhookId: string): string {
  return `whsec_${createHmac('sha256', key).update(`webhook:${webhookId}`).digest('base64url')}`;
}

/**
 * The X-Acacia-Signature of a delivery sent at `timestamp` (seconds since the epoch):
 * `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`. The timestamp is signed
 * with the body, so a receiver that refuses old timestamps bounds how long a captured
 * delivery can be replayed; `v1` names the scheme, so another can be sent beside it later.
 */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

function webhookRecord(w: hooksRepo.Webhook, secret?: string): WebhookRecord {
  return {
    webhook_id: w.id,
    url: w.url,
    ...(w.event_types !== null ? { event_types: w.event_types.split(',').filter(Boolean) as EventType[] } : {}),
    org_id: w.org_id,
    ...(w.created_by !== null ? { created_by: w.created_by } : {}),
    created_at: iso(w.created_at),
    ...(secret ? { signing_secret: secret } : {}),
  };
}

function deliveryRecord(d: hooksRepo.WebhookDelivery): WebhookDeliveryRecord {
  return {
    webhook_id: d.webhook_id,
    event_id: Number(d.event_id),
    event_type: d.event_type as EventType,
    state: d.state as WebhookDeliveryRecord['state'],
    attempts: Number(d.attempts),
    ...(d.last_status_code !== null ? { last_status_code: Number(d.last_status_code) } : {}),
    ...(d.last_error !== null ? { last_error: d.last_error } : {}),
    ...(d.state === 'pending' && d.next_attempt_at !== null ? { next_attempt_at: iso(Number(d.next_attempt_at)) } : {}),
    ...(d.delivered_at !== null ? { delivered_at: iso(Number(d.delivered_at)) } : {}),
    created_at: iso(Number(d.created_at)),
  };
}

const checked: unique symbol = Symbol('checked');

/** A webhook to be created, as WebhookService.check let it through (made nowhere else). */
export interface CheckedWebhook {
  readonly [checked]: true;
  readonly principal: Principal;
  readonly url: URL;
  readonly eventTypes: EventType[] | undefined;
}

/** The organisation's webhooks; every call is for org-admin keys. */
export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly catalog: Catalog,
    private readonly settings: WebhookSettings,
  ) {}

  /**
   * The first half of a creation: the caller's right, the URL and where it leads (a DNS
   * lookup). Slow and outside the store, so it runs before any transaction: the write half,
   * `create`, may run in one (an idempotent POST's) without waiting on DNS inside it.
   */
  async check(p: Principal, body: CreateWebhookBody): Promise<CheckedWebhook> {
    authorize(p, 'org:admin');
    const url = webhookUrl(body.url);
    await checkTarget(url, this.settings.allowPrivate, this.settings.resolve);
    return { [checked]: true, principal: p, url, eventTypes: body.event_types };
  }

  /** The write half of a creation, of what `check` let through. */
  async create(webhookToBe: CheckedWebhook, tx?: Tx): Promise<WebhookRecord> {
    const { principal: p, url, eventTypes } = webhookToBe;
    const webhook: hooksRepo.Webhook = {
      id: newId(),
      org_id: p.orgId,
      url: url.href,
      event_types: eventTypes ? `,${eventTypes.join(',')},` : null,
      created_by: p.keyName,
      created_at: this.clock.now(),
    };
    const limit = this.catalog.limits.webhooks_per_organisation;
    await this.store.unit(tx, async (trx) => {
      // Locked first, so concurrent creates count one after another and cannot overshoot together.
      await lockRow(trx.db, 'organisations', p.orgId);
      checkCount('url', await hooksRepo.countWebhooks(trx.db, p.orgId), limit, 'webhooks per organisation');
      await hooksRepo.insertWebhook(trx.db, webhook);
    });
    return webhookRecord(webhook, webhookSecret(this.settings.key(), webhook.id));
  }

  async list(p: Principal): Promise<WebhookRecord[]> {
    authorize(p, 'org:admin');
    return (await hooksRepo.listWebhooks(this.store.db, p.orgId)).map((w) => webhookRecord(w));
  }

  async get(p: Principal, id: string): Promise<WebhookRecord> {
    return webhookRecord(await this.find(p, id));
  }

  async delete(p: Principal, id: string): Promise<WebhookRecord> {
    const webhook = await this.find(p, id);
    await this.store.transaction((trx) => hooksRepo.deleteWebhook(trx.db, webhook.id));
    return webhookRecord(webhook);
  }

  /** Newest event first; the cursor is the last event id of the page. */
  async deliveries(p: Principal, id: string, page: Page = {}): Promise<PageResult<WebhookDeliveryRecord>> {
    const webhook = await this.find(p, id);
    const after = resumeAfter(page);
    const rows = await hooksRepo.listDeliveries(this.store.db, webhook.id, page.limit, after?.createdAt);
    // The cursor's position is the page's last event id (the webhook's id beside it).
    const { items, nextCursor } = toPage(rows, page.limit, (d) => ({ createdAt: Number(d.event_id), id: webhook.id }));
    return { items: items.map(deliveryRecord), ...(nextCursor ? { nextCursor } : {}) };
  }

  private async find(p: Principal, id: string): Promise<hooksRepo.Webhook> {
    authorize(p, 'org:admin');
    const webhook = await hooksRepo.findWebhook(this.store.db, p.orgId, id);
    if (!webhook) throw notFound('webhook_id', `no webhook "${id}" in this organisation`);
    return webhook;
  }
}
