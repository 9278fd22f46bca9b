import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { Ref } from '../schemas/component.js';
import { Envelope, ErrorEnvelope } from '../schemas/envelope.js';
import { apiEndpoints, type ApiEndpoints, type EndpointId, type EndpointSpec } from '../schemas/endpoints/index.js';
import { answerNotModified, noneMatch } from './conditional-get.js';
import { ok } from './envelope.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint of the table (src/schemas/endpoints) the route serves. */
    endpointId?: EndpointId;
    /**
     * The route's `prepare` (EndpointOptions), for whatever runs its handler inside a
     * transaction (an idempotent POST) to run first, outside it; run once per request.
     */
    prepare?: (request: FastifyRequest) => Promise<void>;
  }
}

type Part<E, K extends string, Otherwise> = E extends { readonly [P in K]: infer S extends TSchema }
  ? Static<S>
  : Otherwise;

/** The request of an endpoint, typed by its params, query and body schemas. */
export type EndpointRequest<E> = FastifyRequest<{
  Params: Part<E, 'params', Record<string, never>>;
  Querystring: Part<E, 'query', Record<string, unknown>>;
  Body: Part<E, 'body', undefined>;
}>;

/**
 * A thin handler: reads the request, calls the domain, returns the Result (the envelope is
 * added here); `prepared` is what the endpoint's `prepare` gave, if it has one.
 */
export type EndpointHandler<E, P = undefined> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
  prepared: P,
) => Promise<Part<E, 'result', never>>;

export interface EndpointOptions<E, P = undefined> {
  /**
   * For a versioned GET: the record's version_number found without reading or building the
   * record, scoped as the read is (undefined leaves the answer, a 404 say, to the read). A
   * request with If-None-Match runs it first and is answered 304 when it matches.
   */
  probe?: (request: EndpointRequest<E>) => Promise<number | undefined>;
  /**
   * Slow work outside the store (a DNS lookup) the handler needs done first: it runs before
   * any transaction the handler may be run in (an idempotent POST's, src/http/idempotency.ts),
   * so it never holds a write connection (SQLite has one), and its result is the handler's
   * `prepared`. A refusal it throws is answered as the handler's would be.
   */
  prepare?: (request: EndpointRequest<E>) => Promise<P>;
}

/** Fastify's form of a path: `{name}` → `:name`. */
export const routePath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

const errorReply = Ref(ErrorEnvelope);

/**
 * Serves one endpoint of the table: its method, path and schemas as declared there. The
 * handler returns the Result; the envelope, the endpoint's Message and, for versioned
 * records, the ETag are added here.
 */
export function serveEndpoint<K extends EndpointId, P = undefined>(
  scope: FastifyInstance,
  endpointId: K,
  handler: EndpointHandler<ApiEndpoints[K], P>,
  options: EndpointOptions<ApiEndpoints[K], P> = {},
): void {
  const endpoint: EndpointSpec = apiEndpoints[endpointId];
  const etag = endpoint.etag === true;
  const { probe } = options;
  const prepared = new WeakMap<FastifyRequest, P>();
  const prepare =
    options.prepare &&
    (async (request: FastifyRequest) => {
      if (!prepared.has(request))
        prepared.set(request, await options.prepare!(request as EndpointRequest<ApiEndpoints[K]>));
    });
  if (probe && !(etag && endpoint.method === 'GET')) throw new Error(`${endpointId}: only a versioned GET has a probe`);
  scope.route({
    method: endpoint.method,
    url: routePath(endpoint.path),
    config: {
      endpointId,
      ...(endpoint.oneTimeSecrets ? { oneTimeSecrets: endpoint.oneTimeSecrets } : {}),
      ...(prepare ? { prepare } : {}),
    },
    schema: {
      operationId: endpointId,
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      // A text answer is sent as the handler gives it; only the errors are serialised.
      response: {
        ...(endpoint.produces ? {} : { 200: Envelope(endpoint.result) }),
        '4xx': errorReply,
        '5xx': errorReply,
      },
    },
    ...(etag && endpoint.method === 'GET' ? { onSend: answerNotModified } : {}),
    handler: (async (request: FastifyRequest, reply: FastifyReply) => {
      const typed = request as EndpointRequest<ApiEndpoints[K]>;
      const held = request.headers['if-none-match'];
      if (probe && held !== undefined) {
        // A match spares reading and building the record; a miss costs the probe and the read.
        const version = await probe(typed);
        const current = version === undefined ? undefined : `"${version}"`;
        if (current !== undefined && noneMatch(held, current)) return reply.code(304).header('etag', current).send();
      }
      if (prepare) await prepare(request);
      const result = await handler(typed, reply, prepared.get(request) as P);
      if (endpoint.produces) return reply.header('content-type', endpoint.produces).send(result);
      if (etag) {
        const version = (result as { version_number?: number }).version_number;
        if (version !== undefined) reply.header('etag', `"${version}"`);
      }
      return ok(request, result, endpoint.message);
    }) as RouteHandlerMethod,
  });
}
