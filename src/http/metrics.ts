import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { appendRouteHook } from './route-hooks.js';

const labelNames = ['method', 'route', 'status_code'] as const;
type Labels = Record<(typeof labelNames)[number], string>;

export interface Metrics {
  registry: Registry;
  /** Counts an answer no route gave (the not-found handler's). */
  observeUnmatched(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Prometheus metrics of one app: request counts and latency by route and status. Each route
 * gets its own onResponse hook with its labels bound, made when the route is added: a hook
 * for all routes would have to read `request.routeOptions`, which Fastify builds anew on
 * every access, and that cost more than the rest of the request's bookkeeping.
 */
export function instrument(app: FastifyInstance): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  /** Every series of the two metrics: its labels and, for the counter, how many requests it counted. */
  const served: Array<{ labels: Labels; count: number }> = [];
  // Counted here and handed over when scraped: prom-client hashes the labels on every inc.
  new Counter({
    name: 'acacia_http_requests_total',
    help: 'HTTP requests served',
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of served) this.inc(s.labels, s.count);
    },
  });
  const latency = new Histogram({
    name: 'acacia_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  /** The two series of one method, route and status, found once. */
  const observerOf = (route: string) => {
    const series = new Map<string, { labels: Labels; count: number; seconds: Histogram.Internal<string> }>();
    return (method: string, status: number, elapsedMs: number) => {
      const key = `${method} ${status}`;
      let s = series.get(key);
      if (!s) {
        const labels = { method, route, status_code: String(status) };
        s = { labels, count: 0, seconds: latency.labels(labels) };
        series.set(key, s);
        served.push(s);
      }
      s.count++;
      s.seconds.observe(elapsedMs / 1000);
    };
  };

  app.addHook('onRoute', (route) => {
    const observe = observerOf(route.url);
    const hook: onResponseHookHandler = (request, reply, done) => {
      observe(request.method, reply.statusCode, reply.elapsedTime);
      done();
    };
    appendRouteHook(route, 'onResponse', hook);
  });

  const unmatched = observerOf('unmatched');
  return {
    registry,
    observeUnmatched: (request, reply) => unmatched(request.method, reply.statusCode, reply.elapsedTime),
  };
}
