import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import { atTime } from '../domain/clock-timers.js';
import type { Clock } from '../domain/clock.js';
import type { EventQuery } from '../domain/event-feed.js';
import type { Principal } from '../domain/principal.js';
import type { Services } from '../domain/services.js';
import type { EventRecord } from '../schemas/event.js';
import type { EventSignals } from '../store/event-signals.js';

export interface EventStreamSettings {
  signals: EventSignals;
  /** Time between heartbeat comments on an idle stream (ms, real time). */
  heartbeatMs: number;
  /** Time a stream waits for its client to take what it was sent, on the server's clock (ms). */
  stallMs: number;
  /** The server's clock: key expiry and stalls are judged on it. */
  clock: Clock;
  /** The manual clock: catches up with a move another process made (see app.ts). */
  syncClock?: (() => Promise<void>) | undefined;
  /** Where the streams' metrics go. */
  registry?: Registry | undefined;
}

/** What a client should wait before reconnecting (the `retry:` field). */
const RETRY_MS = 2000;
/** Events read from the table per query while a stream catches up. */
export const STREAM_BATCH = 500;

/** Why a stream ended: the label of acacia_event_streams_ended_total. */
type EndReason = 'client' | 'stalled' | 'unauthenticated' | 'closing' | 'failed';

interface OpenStream {
  /** Waiting for its client to take what it was sent before reading on. */
  readonly blocked: boolean;
  /** Bytes written for the client that the process still holds. */
  readonly buffered: number;
  end(reason: EndReason): void;
}

const message = (event: EventRecord) =>
  `id: ${event.event_id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * The open event streams of one app. Each reads the caller's events from the table after the
 * last id it sent, in id order: a signal only says "look again", so a stream can neither skip
 * nor repeat an event, whichever process wrote it (see insertEvents for why ids become visible
 * in order). What a stream holds is bounded:
 *
 * - Back-pressure: once a write finds the response's buffer past its high-water mark (the
 *   socket's), the stream reads nothing more until the client has taken it all ('drain'), then
 *   reads on after the last event it wrote. The process holds at most the high-water mark and
 *   one event per stream, however slow the client. A client that has not drained after
 *   `stallMs` is cut off (reset, so the kernel drops what it queued too); it resumes with
 *   Last-Event-ID and loses nothing.
 * - The key: looked at again after each read that found events and before they are written
 *   (so no event committed after a revocation is sent), on every heartbeat, and whenever a key
 *   or organisation changes (EventSignals). The stream ends when the key no longer admits its
 *   caller, and at the key's expiry, on the server's clock.
 */
export class EventStreams {
  private readonly open = new Set<OpenStream>();
  private readonly ended?: Counter<'reason'>;

  constructor(
    private readonly services: Services,
    private readonly settings: EventStreamSettings,
  ) {
    const registers = settings.registry ? [settings.registry] : [];
    if (registers.length === 0) return;
    const open = this.open;
    new Gauge({
      name: 'acacia_event_streams_open',
      help: 'Event streams open in this process',
      registers,
      collect() {
        this.set(open.size);
      },
    });
    new Gauge({
      name: 'acacia_event_streams_blocked',
      help: 'Open event streams waiting for their client to take what they were sent',
      registers,
      collect() {
        this.set([...open].filter((s) => s.blocked).length);
      },
    });
    new Gauge({
      name: 'acacia_event_stream_buffered_bytes_max',
      help: 'The most bytes one open event stream holds in this process for its client',
      registers,
      collect() {
        this.set(Math.max(0, ...[...open].map((s) => s.buffered)));
      },
    });
    this.ended = new Counter({
      name: 'acacia_event_streams_ended_total',
      help: 'Event streams this process ended, by reason',
      labelNames: ['reason'],
      registers,
    });
  }

  /** Ends every stream (the server is closing: open streams would keep it from closing). */
  endAll(): void {
    for (const stream of [...this.open]) stream.end('closing');
  }

  /**
   * Answers the request with a stream of the caller's events from `query.since` on. `release`
   * frees the caller's stream slot; it is called once, when the stream ends.
   */
  start(request: FastifyRequest, reply: FastifyReply, query: EventQuery, release: () => void): void {
    const { services, settings } = this;
    const { clock } = settings;
    const principal: Principal = request.principal;
    const raw = reply.raw;
    const socket: Socket = request.raw.socket;
    reply.hijack();
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store',
      'x-accel-buffering': 'no',
      // A stream's connection is not reused: when the stream ends, so does the connection (and
      // nothing is left for the server's close to wait on).
      connection: 'close',
    });
    // The stream is quiet between heartbeats; the listener's idle timeout must not cut it.
    socket.setTimeout(0);
    raw.write(`retry: ${RETRY_MS}\n\n`);

    let last = query.since;
    let reading = false;
    let again = false;
    let ended = false;
    let blocked = false;
    let cancelStall = () => {};
    let cancelExpiry = () => {};
    let expiresAt: number | null = null;

    /** Stops reading until the client has taken what it was sent; cut off if it does not in time. */
    const block = () => {
      blocked = true;
      cancelStall = atTime(clock, clock.now() + settings.stallMs, () => end('stalled'));
    };
    raw.on('drain', () => {
      if (!blocked || ended) return;
      blocked = false;
      cancelStall();
      void pump();
    });

    /** Whether the key still admits the caller, as committed now; ends the stream when it does not. */
    const keyAdmits = async (): Promise<boolean> => {
      const standing = await services.apiKeys.standing(principal);
      if (ended) return false;
      if (standing.refusal !== undefined) {
        end('unauthenticated', standing.refusal);
        return false;
      }
      if (standing.expiresAt !== expiresAt) {
        cancelExpiry();
        expiresAt = standing.expiresAt;
        if (expiresAt !== null) cancelExpiry = atTime(clock, expiresAt, () => void recheck());
      }
      return true;
    };
    const failed = (err: unknown) => {
      // The store failed: end the stream; the client reconnects with Last-Event-ID and loses nothing.
      request.log.warn({ err }, 'event stream ended by a failed read');
      end('failed');
    };
    const recheck = () => keyAdmits().catch(failed);

    const pump = async (): Promise<void> => {
      if (reading) {
        again = true;
        return;
      }
      if (blocked || ended) return;
      reading = true;
      try {
        do {
          again = false;
          for (;;) {
            const { items: batch, more } = await services.events.read(principal, { ...query, since: last });
            if (ended) return;
            if (batch.length === 0) break;
            // Looked at after the read: a revocation committed before an event the read found
            // is seen here, so no event committed after it is written.
            if (!(await keyAdmits())) return;
            for (const event of batch) {
              const room = raw.write(message(event));
              last = event.event_id;
              if (!room) return block();
            }
            if (!more) break;
          }
        } while (again && !ended);
      } catch (err) {
        failed(err);
      } finally {
        reading = false;
      }
    };

    const unsubscribe = settings.signals.subscribe(() => void pump());
    const unsubscribeKeys = settings.signals.subscribeKeys((id) => {
      if (id === undefined || id === principal.keyId || id === principal.orgId) void recheck();
    });
    const heartbeat = setInterval(() => {
      // A heartbeat is for an idle connection: never added to what the client has not taken.
      if (!blocked && raw.writableLength === 0 && !raw.write(': heartbeat\n\n')) block();
      void (settings.syncClock?.() ?? Promise.resolve()).then(recheck, failed);
    }, settings.heartbeatMs);

    const stream: OpenStream = {
      get blocked() {
        return blocked;
      },
      get buffered() {
        return raw.writableLength;
      },
      end: (reason) => end(reason),
    };
    const end = (reason: EndReason, notice?: string) => {
      if (ended) return;
      ended = true;
      unsubscribe();
      unsubscribeKeys();
      clearInterval(heartbeat);
      cancelStall();
      cancelExpiry();
      this.open.delete(stream);
      release();
      this.ended?.inc({ reason });
      if (reason === 'client') return;
      // A client that does not take what it is sent is not waited for: reset, the kernel drops
      // what it queued for it as well. It resumes with Last-Event-ID.
      if (reason === 'stalled') return void (socket.destroyed || socket.resetAndDestroy());
      if (raw.writableLength > 0) return void raw.destroy();
      // The Reason a request with the key now gets, before the stream closes (docs/events.md).
      if (notice !== undefined) raw.write(`event: error\ndata: ${notice}\n\n`);
      raw.end();
      // Closed once the client has what was written; one that never reads it is not waited for.
      socket.setTimeout(settings.stallMs, () => socket.destroy());
    };
    this.open.add(stream);
    raw.on('close', () => end('client'));
    // Gone while the stream was being set up: its 'close' has been and gone.
    if (socket.destroyed) return end('client');
    void recheck();
    void pump();
  }
}
