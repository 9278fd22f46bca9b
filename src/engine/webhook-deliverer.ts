import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import { eventRecord } from '../domain/events.js';
import { allowedAddresses, hostOf, TargetRefused, type ResolveHost } from '../domain/webhook-targets.js';
import { MAX_DELIVERY_ATTEMPTS, signatureOf, webhookSecret } from '../domain/webhooks.js';
import { findEventsByIds, type EventRow } from '../store/repositories/events.js';
import {
  claimDueDeliveries,
  finishDelivery,
  nextDeliveryDueAt,
  type ClaimedDelivery,
} from '../store/repositories/webhooks.js';
import type { Store } from '../store/store.js';

export interface DelivererOptions {
  owner: string;
  /** How long (engine clock) a claimed delivery is this process's before another may send it. */
  leaseMs: number;
  batch: number;
  /** The wait before retry number `attempt` (1-based). */
  backoffMs: (attempt: number) => number;
  allowPrivate: boolean;
  key: () => Buffer;
  resolve: ResolveHost;
  /** Real time a receiver has to answer. */
  timeoutMs: number;
}

/** What one POST came to: a status, or why there was none. */
type Outcome = { status: number } | { error: string };

/**
 * Sends the organisation's events to its webhooks, at least once: claims due deliveries
 * under a lease (as the worker claims operations, so two processes never send one at once),
 * POSTs each event signed with its webhook's secret, and records delivered, a retry after a
 * doubling back-off, or failed after MAX_DELIVERY_ATTEMPTS. One webhook's deliveries of a
 * batch go one after another, in event order; different webhooks' at the same time.
 */
export class WebhookDeliverer {
  /** The batch being sent, if any: sends run beside the engine's other parts, not inside its pass. */
  private sending: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: DelivererOptions,
    private readonly stopping: AbortSignal,
  ) {}

  /**
   * Claims a batch and starts sending it, without waiting: a slow receiver (up to the timeout
   * per POST) must not hold up operations, schedules or the reconciler. The next batch is
   * claimed once this one is done.
   */
  async tick(): Promise<number> {
    if (this.stopping.aborted || this.sending) return 0;
    const { owner, leaseMs, batch } = this.options;
    const claimed = await this.store.transaction((trx) =>
      claimDueDeliveries(trx, owner, this.clock.now(), leaseMs, batch),
    );
    if (claimed.length === 0) return 0;
    const events = new Map(
      (await findEventsByIds(this.store.db, [...new Set(claimed.map((d) => Number(d.event_id)))])).map((e) => [
        Number(e.id),
        e,
      ]),
    );
    this.sending = this.send(claimed, events).finally(() => {
      this.sending = undefined;
      this.sent?.();
    });
    return claimed.length;
  }

  /** Told when a batch has been sent (the engine looks again for more). */
  sent?: () => void;

  /** Whether a batch is being sent. */
  get busy(): boolean {
    return this.sending !== undefined;
  }

  /** Resolves once the batch being sent, if any, is done (shutdown, and the manual clock's settling). */
  async idle(): Promise<void> {
    await this.sending;
  }

  private async send(claimed: ClaimedDelivery[], events: Map<number, EventRow>): Promise<void> {
    const byWebhook = new Map<string, ClaimedDelivery[]>();
    for (const d of claimed) byWebhook.set(d.webhook_id, [...(byWebhook.get(d.webhook_id) ?? []), d]);
    await Promise.all(
      [...byWebhook.values()].map(async (deliveries) => {
        for (const d of deliveries) {
          try {
            await this.deliver(d, events.get(Number(d.event_id)));
          } catch (err) {
            // The outcome could not be recorded: the lease ends and the delivery is sent again.
            this.logger.error({ err, webhook: d.webhook_id, event: d.event_id }, 'webhook delivery not recorded');
          }
        }
      }),
    );
  }

  /** The earliest instant after `after` at which a delivery becomes due. */
  nextDueAt(after: number): Promise<number | undefined> {
    return nextDeliveryDueAt(this.store.db, after);
  }

  private async deliver(d: ClaimedDelivery, event: EventRow | undefined): Promise<void> {
    const attempts = Number(d.attempts);
    if (!event) {
      await finishDelivery(this.store.db, d, this.options.owner, {
        state: 'failed',
        last_error: 'the event is no longer kept',
      });
      return;
    }
    const body = JSON.stringify(eventRecord(event));
    const secret = webhookSecret(this.options.key(), d.webhook_id);
    const timestamp = Math.floor(this.clock.now() / 1000);
    const outcome = await this.post(d.url, body, {
      'content-type': 'application/json',
      'user-agent': 'Acacia-Webhooks',
      'x-acacia-event-id': String(event.id),
      'x-acacia-event-type': event.type,
      'x-acacia-timestamp': String(timestamp),
      'x-acacia-signature': signatureOf(secret, timestamp, body),
    });
    const now = this.clock.now();
    const status = 'status' in outcome ? outcome.status : null;
    if (status !== null && status >= 200 && status < 300) {
      await finishDelivery(this.store.db, d, this.options.owner, {
        state: 'delivered',
        last_status_code: status,
        last_error: null,
        delivered_at: now,
        next_attempt_at: null,
      });
      return;
    }
    const error = 'error' in outcome ? outcome.error : `the receiver answered ${status}`;
    const final = attempts >= MAX_DELIVERY_ATTEMPTS;
    await finishDelivery(this.store.db, d, this.options.owner, {
      state: final ? 'failed' : 'pending',
      last_status_code: status,
      last_error: error,
      next_attempt_at: final ? null : now + this.options.backoffMs(attempts),
    });
    this.logger.warn(
      { webhook: d.webhook_id, event: Number(d.event_id), attempt: attempts, status, error },
      final ? 'webhook delivery failed' : 'webhook delivery failed; will retry',
    );
  }

  /**
   * One POST, to an address judged again now (DNS may have changed since the webhook was
   * made): the host is resolved once, and the connection goes only to the addresses judged.
   */
  private async post(target: string, body: string, headers: Record<string, string>): Promise<Outcome> {
    const url = new URL(target);
    const signal = AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), this.stopping]);
    let addresses: string[] | undefined;
    try {
      addresses = await untilAborted(
        allowedAddresses(hostOf(url), this.options.allowPrivate, this.options.resolve),
        signal,
      );
    } catch (err) {
      if (err instanceof TargetRefused) return { error: `the URL ${err.message}` };
      return { error: (err as Error).message };
    }
    if (addresses === undefined) return { error: 'the receiver did not answer in time' };
    const lookup = fixedLookup(addresses);
    return new Promise<Outcome>((resolve) => {
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup,
        signal,
      });
      request.on('response', (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0 });
      });
      request.on('error', (err) =>
        resolve({ error: signal.aborted ? 'the receiver did not answer in time' : err.message }),
      );
      request.end(body);
    });
  }
}

/** What `work` resolves to, or undefined once `signal` aborts first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const abort = () => resolve(undefined);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** A lookup that answers the addresses already judged, so the connection goes nowhere else. */
function fixedLookup(addresses: string[]): LookupFunction {
  return (hostname, options, callback) => {
    const found: LookupAddress[] = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter((a) => !options.family || a.family === options.family);
    if (found.length === 0) {
      const err = Object.assign(new Error(`${hostname} has no address of family ${options.family}`), {
        code: 'ENOTFOUND',
      });
      return callback(err, '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, found);
    callback(null, found[0]!.address, found[0]!.family);
  };
}
