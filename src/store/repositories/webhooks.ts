import { sql } from 'kysely';
import type { WebhookDeliveriesTable, WebhooksTable } from '../schema.js';
import { claimSkippingLocked } from '../capabilities.js';
import type { Executor } from '../store.js';

export type Webhook = WebhooksTable;
export type WebhookDelivery = Omit<WebhookDeliveriesTable, 'attempts'> & { attempts: number };

/** A delivery claimed for sending, with where it goes. */
export interface ClaimedDelivery extends WebhookDelivery {
  url: string;
}

export async function insertWebhook(db: Executor, webhook: Webhook): Promise<void> {
  await db.insertInto('webhooks').values(webhook).execute();
}

/** How many webhooks the organisation has (its index holds them all). */
export async function countWebhooks(db: Executor, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listWebhooks(db: Executor, orgId: string): Promise<Webhook[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findWebhook(db: Executor, orgId: string, id: string): Promise<Webhook | undefined> {
  return db.selectFrom('webhooks').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** Deletes a webhook and its deliveries. */
export async function deleteWebhook(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

/** A webhook's deliveries, newest event first, `limit` + 1 of them after the event id `before`. */
export async function listDeliveries(
  db: Executor,
  webhookId: string,
  limit: number | undefined,
  before: number | undefined,
): Promise<WebhookDelivery[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
  if (before !== undefined) query = query.where('event_id', '<', before);
  query = query.orderBy('event_id', 'desc');
  if (limit !== undefined) query = query.limit(limit + 1);
  return (await query.execute()) as WebhookDelivery[];
}

/**
 * Claims due deliveries (oldest event first) for `owner`: each is leased by moving its
 * next_attempt_at to the lease's end, so a process that dies mid-send leaves it due again
 * then. On PostgreSQL rows another process is claiming are skipped.
 */
export async function claimDueDeliveries(
  trx: Executor,
  owner: string,
  now: number,
  leaseMs: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const due = trx
    .selectFrom('webhook_deliveries')
    .select(['webhook_id', 'event_id'])
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('event_id')
    .limit(limit);
  const keys = await claimSkippingLocked(trx, due).execute();
  if (keys.length === 0) return [];
  const claimed: ClaimedDelivery[] = [];
  for (const key of keys) {
    await trx
      .updateTable('webhook_deliveries')
      .set({ lease_owner: owner, next_attempt_at: now + leaseMs, attempts: sql<number>`attempts + 1` })
      .where('webhook_id', '=', key.webhook_id)
      .where('event_id', '=', key.event_id)
      .execute();
  }
  const rows = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .selectAll('d')
    .select('w.url')
    .where('d.lease_owner', '=', owner)
    .where('d.state', '=', 'pending')
    .where('d.next_attempt_at', '=', now + leaseMs)
    .orderBy('d.event_id')
    .execute();
  const wanted = new Set(keys.map((k) => `${k.webhook_id}:${k.event_id}`));
  for (const row of rows) if (wanted.has(`${row.webhook_id}:${row.event_id}`)) claimed.push(row as ClaimedDelivery);
  return claimed;
}

/** Records an attempt's outcome, if `owner` still holds the delivery; false when it was lost. */
export async function finishDelivery(
  db: Executor,
  delivery: Pick<WebhookDelivery, 'webhook_id' | 'event_id'>,
  owner: string,
  changes: Partial<
    Pick<WebhookDelivery, 'state' | 'next_attempt_at' | 'last_status_code' | 'last_error' | 'delivered_at'>
  >,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ ...changes, lease_owner: null })
    .where('webhook_id', '=', delivery.webhook_id)
    .where('event_id', '=', delivery.event_id)
    .where('lease_owner', '=', owner)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The earliest time after `after` at which a pending delivery becomes due. */
export async function nextDeliveryDueAt(db: Executor, after: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('state', '=', 'pending')
    .where('next_attempt_at', '>', after)
    .executeTakeFirst();
  return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
}

/** Deletes deliveries of events older than `before` (the events' own retention). */
export async function pruneDeliveries(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
