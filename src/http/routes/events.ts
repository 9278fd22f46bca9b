import type { FastifyInstance, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { Services } from '../../domain/services.js';
import { parseEventTypes, parseLastEventId, type EventQuery } from '../../domain/event-feed.js';
import { StreamSlots, type StreamLimits } from '../../domain/stream-slots.js';
import { EventStreams, STREAM_BATCH, type EventStreamSettings } from '../event-stream.js';
import { serveEndpoint as serve, type EndpointRequest } from '../serve-endpoint.js';
import type { ApiEndpoints } from '../../schemas/endpoints/index.js';

export interface EventRouteSettings extends EventStreamSettings {
  limits: StreamLimits;
}

const DEFAULT_PAGE = 100;
/** Seconds a client refused a stream slot is told to wait: slots free as other streams end. */
const SLOT_RETRY_AFTER_SECONDS = 5;

type Request = EndpointRequest<ApiEndpoints['listEvents']>;

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
  const streams = new EventStreams(services, settings);
  const slots = new StreamSlots(settings.limits);
  // Open streams would keep the server from closing: end them first.
  api.addHook('preClose', (done) => {
    streams.endAll();
    done();
  });

  serve(api, 'listEvents', async (request, reply) => {
    const since = request.query.since ?? parseLastEventId(header(request, 'last-event-id'));
    if (wantsStream(request)) {
      // The filters are checked before the stream starts, so a bad one is an envelope error.
      const query = queryOf(request, since ?? 0, STREAM_BATCH);
      // Taken before anything is awaited, so that concurrent opens cannot overshoot the limits.
      let release: () => void;
      try {
        release = slots.take(request.principal);
      } catch (err) {
        reply.header('retry-after', String(SLOT_RETRY_AFTER_SECONDS));
        throw err;
      }
      try {
        const start = since ?? (await services.events.newest(request.principal));
        streams.start(request, reply, { ...query, since: start }, release);
      } catch (err) {
        release();
        throw err;
      }
      return [];
    }
    const limit = request.query.limit ?? DEFAULT_PAGE;
    const { items, more } = await services.events.read(request.principal, queryOf(request, since ?? 0, limit));
    if (more) reply.header('x-next-cursor', String(items.at(-1)!.event_id));
    return items;
  });
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
