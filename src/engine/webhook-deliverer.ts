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
  /** How many POSTs this process has under way at most. */
  senders: number;
  /** How many of one organisation's deliveries are in flight at most, every process's counted. */
  perOrganisation: number;
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
 * doubling back-off, or failed after MAX_DELIVERY_ATTEMPTS.
 *
 * Up to `senders` POSTs are under way at once, beside the engine's other parts rather than
 * inside its pass (a slow receiver, up to the timeout per POST, holds up no operation,
 * schedule or recovery). Each sender that finishes claims more at once: there is no batch
 * whose slowest receiver the others wait for. The claim is fair (claimDueDeliveries): one
 * delivery in flight per webhook, in event order; at most `perOrganisation` per organisation;
 * organisations in turn. So an organisation whose receivers hang holds a few senders until
 * they time out, and every other organisation's deliveries go out meanwhile.
 */
export class WebhookDeliverer {
  /** The POSTs under way (each settles once its outcome is recorded, or could not be). */
  private readonly sending = new Set<Promise<void>>();
  /** The claim being made, if any: one at a time, sized by the senders free when it began. */
  private claiming: Promise<number> | undefined;
  /** A sender finished while a claim was being made: claim again once it is done. */
  private again = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: DelivererOptions,
    private readonly stopping: AbortSignal,
  ) {}

  /** Claims what the free senders can take and starts sending it, without waiting for the POSTs. */
  tick(): Promise<number> {
    if (this.stopping.aborted || this.claiming) return Promise.resolve(0);
    const free = this.options.senders - this.sending.size;
    if (free <= 0) return Promise.resolve(0);
    const claiming = this.claimAndSend(free).finally(() => {
      this.claiming = undefined;
      if (this.again) this.refill();
    });
    this.claiming = claiming;
    return claiming;
  }

  /** Whether a claim is being made or a POST is under way. */
  get busy(): boolean {
    return this.claiming !== undefined || this.sending.size > 0;
  }

  /**
   * Resolves once no claim is being made and no POST is under way, the claims that finished
   * sends made meanwhile included (shutdown, and the manual clock's settling).
   */
  async idle(): Promise<void> {
    while (this.busy) await Promise.allSettled([this.claiming, ...this.sending]);
  }

  private async claimAndSend(free: number): Promise<number> {
    const { owner, leaseMs, perOrganisation } = this.options;
    const claimed = await this.store.transaction((trx) =>
      claimDueDeliveries(trx.db, owner, this.clock.now(), leaseMs, free, perOrganisation),
    );
    if (claimed.length === 0) return 0;
    const events = new Map(
      (await findEventsByIds(this.store.db, [...new Set(claimed.map((d) => Number(d.event_id)))])).map((e) => [
        Number(e.id),
        e,
      ]),
    );
    for (const d of claimed) this.send(d, events.get(Number(d.event_id)));
    return claimed.length;
  }

  private send(d: ClaimedDelivery, event: EventRow | undefined): void {
    const sending: Promise<void> = this.deliver(d, event)
      .catch((err: unknown) => {
        // The outcome could not be recorded: the lease ends and the delivery is sent again.
        this.logger.error({ err, webhook: d.webhook_id, event: d.event_id }, 'webhook delivery not recorded');
      })
      .finally(() => {
        this.sending.delete(sending);
        this.refill();
      });
    this.sending.add(sending);
  }

  /** A sender is free: claim for it now (after the claim under way, if any). */
  private refill(): void {
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.again = false;
    this.tick().catch((err: unknown) => this.logger.error({ err }, 'webhook deliveries could not be claimed'));
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
