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
 * Claims up to `limit` due deliveries for `owner`, fairly: each is leased by moving its
 * next_attempt_at to the lease's end (a process that dies mid-send leaves it due again
 * then) and marking the owner. Chosen so that
 * - a webhook has at most one delivery in flight, its oldest due one: none while another of
 *   its deliveries is under a live lease, so its receiver gets them one at a time, in event
 *   order (a retry waiting for its back-off lets later events go ahead);
 * - an organisation has at most `perOrganisation` in flight (live leases of every process
 *   counted), so one with slow receivers cannot take every sender;
 * - organisations take turns: each one's first delivery before any one's second, and within
 *   a turn the longest due first.
 * Window functions, the same on both stores, number each webhook's and each organisation's
 * due deliveries; the due set is found through (state, next_attempt_at).
 * On PostgreSQL the chosen webhooks are locked (those another process is claiming skipped)
 * and each lease is taken only if the delivery is still due and its webhook still has none
 * in flight, read after the lock: two processes never send one webhook's deliveries at once.
 */
export async function claimDueDeliveries(
  trx: Executor,
  owner: string,
  now: number,
  leaseMs: number,
  limit: number,
  perOrganisation: number,
): Promise<ClaimedDelivery[]> {
  const { rows: chosen } = await sql<{ webhook_id: string; event_id: number | string }>`
    with live as (
      select webhook_id, org_id from webhook_deliveries
      where state = 'pending' and next_attempt_at > ${now} and lease_owner is not null
    ),
    heads as (
      select webhook_id, min(org_id) as org_id, min(event_id) as event_id, min(next_attempt_at) as due_since
      from webhook_deliveries
      where state = 'pending' and next_attempt_at <= ${now}
        and webhook_id not in (select webhook_id from live)
      group by webhook_id
    ),
    turns as (
      select webhook_id, event_id, org_id, due_since,
        row_number() over (partition by org_id order by due_since, event_id) as turn
      from heads
    )
    select t.webhook_id, t.event_id from turns t
    where t.turn + (select count(*) from live l where l.org_id = t.org_id) <= ${perOrganisation}
    order by t.turn, t.due_since, t.event_id
    limit ${limit}`.execute(trx);
  if (chosen.length === 0) return [];
  const locked = new Set(
    (
      await claimSkippingLocked(
        trx,
        trx
          .selectFrom('webhooks')
          .select('id')
          .where(
            'id',
            'in',
            chosen.map((c) => c.webhook_id),
          ),
      ).execute()
    ).map((w) => w.id),
  );
  const leaseEnd = now + leaseMs;
  const wanted = new Set<string>();
  for (const { webhook_id, event_id } of chosen) {
    if (!locked.has(webhook_id)) continue;
    const result = await trx
      .updateTable('webhook_deliveries')
      .set({ lease_owner: owner, next_attempt_at: leaseEnd, attempts: sql<number>`attempts + 1` })
      .where('webhook_id', '=', webhook_id)
      .where('event_id', '=', Number(event_id))
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as l')
              .select('l.event_id')
              .where('l.webhook_id', '=', webhook_id)
              .where('l.state', '=', 'pending')
              .where('l.next_attempt_at', '>', now)
              .where('l.lease_owner', 'is not', null),
          ),
        ),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) wanted.add(`${webhook_id}:${Number(event_id)}`);
  }
  if (wanted.size === 0) return [];
  const rows = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .selectAll('d')
    .select('w.url')
    .where('d.lease_owner', '=', owner)
    .where('d.state', '=', 'pending')
    .where('d.next_attempt_at', '=', leaseEnd)
    .orderBy('d.event_id')
    .execute();
  return rows.filter((row) => wanted.has(`${row.webhook_id}:${Number(row.event_id)}`)) as ClaimedDelivery[];
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
