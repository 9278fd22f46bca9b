import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { Services } from '../../domain/services.js';
import { parseEventTypes, parseLastEventId, type EventQuery } from '../../domain/event-feed.js';
import type { Principal } from '../../domain/principal.js';
import type { EventSignals } from '../../store/event-signals.js';
import type { EventRecord } from '../../schemas/event.js';
import { serveOperation as serve, type OperationRequest } from '../serve-operation.js';
import type { ApiOperations } from '../../schemas/operations/index.js';

export interface EventRouteSettings {
  signals: EventSignals;
  heartbeatMs: number;
}

/** What a client should wait before reconnecting (the `retry:` field). */
const RETRY_MS = 2000;
/** Events read from the table per query while a stream catches up. */
const STREAM_BATCH = 500;
const DEFAULT_PAGE = 100;

type Request = OperationRequest<ApiOperations['listEvents']>;

/** SSE when asked by format=sse, or by Accept when format is not given. */
function wantsStream(request: Request): boolean {
  if (request.query.format !== undefined) return request.query.format === 'sse';
  const accept = request.headers.accept;
  if (!accept) return false;
  return new Negotiator(request.raw).mediaType(['application/json', 'text/event-stream']) === 'text/event-stream';
}

function queryOf(request: Request, since: number, limit: number): EventQuery {
  const q = request.query;
  return {
    since,
    limit,
    resourceId: q.resource_id,
    workgroupId: q.workgroup_id,
    types: parseEventTypes(q.type),
  };
}

export function eventRoutes(api: FastifyInstance, services: Services, settings: EventRouteSettings): void {
  const streams = new Set<() => void>();
  // Open streams would keep the server from closing: end them first.
  api.addHook('preClose', (done) => {
    for (const end of [...streams]) end();
    done();
  });

  serve(api, 'listEvents', async (request, reply) => {
    const since = request.query.since ?? parseLastEventId(header(request, 'last-event-id'));
    if (wantsStream(request)) {
      // The filters are checked before the stream starts, so a bad one is an envelope error.
      const query = queryOf(request, since ?? 0, STREAM_BATCH);
      const start = since ?? (await services.events.newest(request.principal));
      openStream(request, reply, services, settings, streams, { ...query, since: start });
      return [];
    }
    const limit = request.query.limit ?? DEFAULT_PAGE;
    const items = await services.events.read(request.principal, queryOf(request, since ?? 0, limit));
    if (items.length === limit) reply.header('x-next-cursor', String(items.at(-1)!.event_id));
    return items;
  });
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Streams the caller's events from `query.since` on. Events are always read from the table
 * after the last id sent, in id order: a signal only says "look again", so a stream can
 * neither skip nor repeat an event, whichever process wrote it (see insertEvents for why ids
 * become visible in order).
 */
function openStream(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  settings: EventRouteSettings,
  streams: Set<() => void>,
  query: EventQuery,
): void {
  const principal: Principal = request.principal;
  const raw = reply.raw;
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
  request.raw.socket.setTimeout(0);
  raw.write(`retry: ${RETRY_MS}\n\n`);

  let last = query.since;
  let reading = false;
  let again = false;
  let ended = false;
  const send = (event: EventRecord) =>
    raw.write(`id: ${event.event_id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  const pump = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        for (;;) {
          const batch = await services.events.read(principal, { ...query, since: last });
          if (ended) return;
          for (const event of batch) send(event);
          if (batch.length > 0) last = batch.at(-1)!.event_id;
          if (batch.length < STREAM_BATCH) break;
        }
      } while (again && !ended);
    } catch (err) {
      // The store failed: end the stream; the client reconnects with Last-Event-ID and loses nothing.
      request.log.warn({ err }, 'event stream ended by a failed read');
      end();
    } finally {
      reading = false;
    }
  };
  const unsubscribe = settings.signals.subscribe(() => void pump());
  const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), settings.heartbeatMs);
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    clearInterval(heartbeat);
    streams.delete(end);
    raw.end();
  };
  streams.add(end);
  raw.on('close', end);
  void pump();
}
