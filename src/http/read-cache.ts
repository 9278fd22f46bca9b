import type { FastifyInstance, FastifyRequest, onSendHookHandler, preValidationHookHandler } from 'fastify';
import type { Services } from '../domain/services.js';
import { appendRouteHook } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's 200 answer is a function of the caller, its address, the URL and the store
     * (and of time only up to a `validUntil` the domain reports): it may be served again
     * while the store's change token is unchanged.
     */
    cacheable?: boolean;
  }
}

/** What every success envelope starts with, up to the request ID (the serializer's key order). */
const ENVELOPE_HEAD = '{"Error":false,"ErrorDetails":[],"Message":"OK","RequestID":';
const JSON_TYPE = 'application/json; charset=utf-8';
/** The envelope up to and with this request's ID: ASCII, as request IDs are. */
const headOf = (request: FastifyRequest) => ENVELOPE_HEAD + JSON.stringify(request.id);
/** Headers that are part of the answer and are given again with it. */
const ANSWER_HEADERS = ['etag', 'x-next-cursor'] as const;

interface Entry {
  storeToken: number;
  validUntil: number | undefined;
  headers: Record<string, string>;
  /** The envelope after the request ID: `,"Result":…}`. */
  tail: Buffer;
}

/**
 * Serves repeated reads of workgroups, workspaces and databases without the store, for as
 * long as the store's change token (any write, by any connection) and the domain's
 * `validUntil` say the answer still holds; the oldest entries go first once `maxBytes` is
 * held. Where the store has no change token (PostgreSQL) nothing is cached.
 *
 * Runs in the route's preValidation, after authentication and the rate limit, so a cached
 * answer is still only given to a caller allowed it, and still counts towards its limit.
 */
export function cacheReads(scope: FastifyInstance, services: Services, maxBytes: number): void {
  if (maxBytes <= 0 || services.store.changeToken() === undefined) return;
  const entries = new Map<string, Entry>();
  let heldBytes = 0;
  const drop = (key: string, entry: Entry) => {
    entries.delete(key);
    heldBytes -= entry.tail.length;
  };
  /**
   * The caller, its address, the path and the query parameters the route defines: others (a
   * browser's cache-busting `?_t=<ms>`) change nothing in the answer, so they share its entry.
   */
  const keyOf = (request: FastifyRequest, queryNames: readonly string[]) => {
    const path = request.url.split('?')[0];
    const query = request.query as Record<string, unknown>;
    const known = queryNames.map((name) => `${name}=${String(query[name] ?? '')}`).join('&');
    return `${request.principal.keyId} ${request.ip} ${path}?${known}`;
  };

  const serve =
    (queryNames: readonly string[]): preValidationHookHandler =>
    (request, reply, done) => {
      if (request.storeToken === undefined) return done();
      const key = keyOf(request, queryNames);
      const entry = entries.get(key);
      if (!entry) return done();
      if (
        entry.storeToken !== request.storeToken ||
        (entry.validUntil !== undefined && services.clock.now() >= entry.validUntil)
      ) {
        drop(key, entry);
        return done();
      }
      reply.headers(entry.headers);
      // The head is ASCII, so it is as many bytes as characters.
      const head = headOf(request);
      const body = Buffer.allocUnsafe(head.length + entry.tail.length);
      body.write(head, 0, 'latin1');
      entry.tail.copy(body, head.length);
      reply.type(JSON_TYPE).send(body);
    };

  const keep =
    (queryNames: readonly string[]): onSendHookHandler =>
    (request, reply, payload, done) => {
      const storeToken = request.storeToken;
      if (storeToken === undefined || reply.statusCode !== 200 || typeof payload !== 'string') return done();
      const head = headOf(request);
      if (!payload.startsWith(head)) return done();
      const tail = Buffer.from(payload.slice(head.length));
      if (tail.length > maxBytes / 4) return done();
      const key = keyOf(request, queryNames);
      const old = entries.get(key);
      if (old) drop(key, old);
      const headers: Record<string, string> = {};
      for (const name of ANSWER_HEADERS) {
        const value = reply.getHeader(name);
        if (typeof value === 'string') headers[name] = value;
      }
      entries.set(key, { storeToken, validUntil: request.domainContext?.validUntil, headers, tail });
      heldBytes += tail.length;
      for (const [k, e] of entries) {
        if (heldBytes <= maxBytes) break;
        drop(k, e);
      }
      done();
    };

  scope.addHook('onRoute', (route) => {
    if (!route.config?.cacheable) return;
    const querystring = route.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
    const queryNames = Object.keys(querystring?.properties ?? {}).sort();
    appendRouteHook(route, 'preValidation', serve(queryNames));
    appendRouteHook(route, 'onSend', keep(queryNames));
  });
}
