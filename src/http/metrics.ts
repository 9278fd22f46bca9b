import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import { Counter, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { appendRouteHook } from './route-hooks.js';

const labelNames = ['method', 'route', 'status_code'] as const;
type Labels = Record<(typeof labelNames)[number], string>;

export interface Metrics {
  registry: Registry;
  /** Counts an answer no route gave (the not-found handler's). */
  observeUnmatched(request: FastifyRequest, reply: FastifyReply): void;
}

/** Upper bounds of the latency buckets, seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** What one method, route and status has been seen to take. */
interface Series {
  labels: Labels;
  count: number;
  seconds: number;
  /** Observations per bucket (not cumulative); the last counts those above every bound. */
  perBucket: Float64Array;
}

/**
 * Request latency as a Prometheus histogram. prom-client's own validates and hashes the labels
 * on every observation (about a microsecond, a few percent of a cached read), so each series
 * is counted here and handed to the registry in prom-client's shape when scraped.
 */
function latencyHistogram(registry: Registry, series: readonly Series[]): void {
  const name = 'acacia_http_request_duration_seconds';
  const metric = {
    name,
    help: 'HTTP request latency',
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({
      name: metric.name,
      help: metric.help,
      type: metric.type,
      aggregator: metric.aggregator,
      values: series.flatMap((s) => {
        let below = 0;
        const buckets = BUCKETS.map((le, i) => ({
          labels: { le },
          sharedLabels: s.labels,
          metricName: `${name}_bucket`,
          value: (below += s.perBucket[i]!),
        }));
        return [
          ...buckets,
          { labels: { le: '+Inf' }, sharedLabels: s.labels, metricName: `${name}_bucket`, value: s.count },
          { labels: {}, sharedLabels: s.labels, metricName: `${name}_sum`, value: s.seconds },
          { labels: {}, sharedLabels: s.labels, metricName: `${name}_count`, value: s.count },
        ];
      }),
    }),
    reset: () => undefined,
  };
  // The registry takes any object of this shape; its type names only prom-client's classes.
  registry.registerMetric(metric as unknown as Metric);
}

/**
 * Prometheus metrics of one app: request counts and latency by route and status. Each route
 * gets its own onResponse hook with its labels bound, made when the route is added: a hook
 * for all routes would have to read `request.routeOptions`, which Fastify builds anew on
 * every access, and that cost more than the rest of the request's bookkeeping.
 */
export function instrument(app: FastifyInstance, registry = new Registry()): Metrics {
  collectDefaultMetrics({ register: registry });
  const served: Series[] = [];
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
  latencyHistogram(registry, served);

  /** The series of one method, route and status, found once. */
  const observerOf = (route: string) => {
    // By method, then status: no key string is built per request.
    const byMethod = new Map<string, Map<number, Series>>();
    return (method: string, status: number, elapsedMs: number) => {
      let byStatus = byMethod.get(method);
      if (!byStatus) byMethod.set(method, (byStatus = new Map()));
      let s = byStatus.get(status);
      if (!s) {
        s = {
          labels: { method, route, status_code: String(status) },
          count: 0,
          seconds: 0,
          perBucket: new Float64Array(BUCKETS.length + 1),
        };
        byStatus.set(status, s);
        served.push(s);
      }
      const seconds = elapsedMs / 1000;
      let i = 0;
      while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
      s.perBucket[i]!++;
      s.count++;
      s.seconds += seconds;
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
