import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { Ref } from '../schemas/component.js';
import { Envelope, ErrorEnvelope } from '../schemas/envelope.js';
import {
  apiOperations,
  type ApiOperations,
  type OperationId,
  type OperationSpec,
} from '../schemas/operations/index.js';
import { answerNotModified, noneMatch } from './conditional-get.js';
import { ok } from './envelope.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation of the table (src/schemas/operations) the route serves. */
    operationId?: OperationId;
    /**
     * The route's `prepare` (OperationOptions), for whatever runs its handler inside a
     * transaction (an idempotent POST) to run first, outside it; run once per request.
     */
    prepare?: (request: FastifyRequest) => Promise<void>;
  }
}

type Part<O, K extends string, Otherwise> = O extends { readonly [P in K]: infer S extends TSchema }
  ? Static<S>
  : Otherwise;

/** The request of an operation, typed by its params, query and body schemas. */
export type OperationRequest<O> = FastifyRequest<{
  Params: Part<O, 'params', Record<string, never>>;
  Querystring: Part<O, 'query', Record<string, unknown>>;
  Body: Part<O, 'body', undefined>;
}>;

/**
 * A thin handler: reads the request, calls the domain, returns the Result (the envelope is
 * added here); `prepared` is what the operation's `prepare` gave, if it has one.
 */
export type OperationHandler<O, P = undefined> = (
  request: OperationRequest<O>,
  reply: FastifyReply,
  prepared: P,
) => Promise<Part<O, 'result', never>>;

export interface OperationOptions<O, P = undefined> {
  /**
   * For a versioned GET: the record's version_number found without reading or building the
   * record, scoped as the read is (undefined leaves the answer, a 404 say, to the read). A
   * request with If-None-Match runs it first and is answered 304 when it matches.
   */
  probe?: (request: OperationRequest<O>) => Promise<number | undefined>;
  /**
   * Slow work outside the store (a DNS lookup) the handler needs done first: it runs before
   * any transaction the handler may be run in (an idempotent POST's, src/http/idempotency.ts),
   * so it never holds a write connection (SQLite has one), and its result is the handler's
   * `prepared`. A refusal it throws is answered as the handler's would be.
   */
  prepare?: (request: OperationRequest<O>) => Promise<P>;
}

/** Fastify's form of a path: `{name}` → `:name`. */
export const routePath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

const errorReply = Ref(ErrorEnvelope);

/**
 * Serves one operation of the table: its method, path and schemas as declared there. The
 * handler returns the Result; the envelope, the operation's Message and, for versioned
 * records, the ETag are added here.
 */
export function serveOperation<K extends OperationId, P = undefined>(
  scope: FastifyInstance,
  operationId: K,
  handler: OperationHandler<ApiOperations[K], P>,
  options: OperationOptions<ApiOperations[K], P> = {},
): void {
  const op: OperationSpec = apiOperations[operationId];
  const etag = op.etag === true;
  const { probe } = options;
  const prepared = new WeakMap<FastifyRequest, P>();
  const prepare =
    options.prepare &&
    (async (request: FastifyRequest) => {
      if (!prepared.has(request))
        prepared.set(request, await options.prepare!(request as OperationRequest<ApiOperations[K]>));
    });
  if (probe && !(etag && op.method === 'GET')) throw new Error(`${operationId}: only a versioned GET has a probe`);
  scope.route({
    method: op.method,
    url: routePath(op.path),
    config: {
      operationId,
      ...(op.oneTimeSecrets ? { oneTimeSecrets: op.oneTimeSecrets } : {}),
      ...(prepare ? { prepare } : {}),
    },
    schema: {
      operationId,
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { querystring: op.query } : {}),
      ...(op.body ? { body: op.body } : {}),
      response: { 200: Envelope(op.result), '4xx': errorReply, '5xx': errorReply },
    },
    ...(etag && op.method === 'GET' ? { onSend: answerNotModified } : {}),
    handler: (async (request: FastifyRequest, reply: FastifyReply) => {
      const typed = request as OperationRequest<ApiOperations[K]>;
      const held = request.headers['if-none-match'];
      if (probe && held !== undefined) {
        // A match spares reading and building the record; a miss costs the probe and the read.
        const version = await probe(typed);
        const current = version === undefined ? undefined : `"${version}"`;
        if (current !== undefined && noneMatch(held, current)) return reply.code(304).header('etag', current).send();
      }
      if (prepare) await prepare(request);
      const result = await handler(typed, reply, prepared.get(request) as P);
      if (etag) {
        const version = (result as { version_number?: number }).version_number;
        if (version !== undefined) reply.header('etag', `"${version}"`);
      }
      return ok(request, result, op.message);
    }) as RouteHandlerMethod,
  });
}
