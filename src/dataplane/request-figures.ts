/** Upper bounds of the latency buckets, seconds (the +Inf bucket is the count). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** What one endpoint has been seen to take since the process started. */
export interface EndpointFigures {
  /** Method and route pattern, TigerGraph's style: `GET /restpp/graph/{graph}/vertices/{vtype}`. */
  endpoint: string;
  count: number;
  sum_seconds: number;
  min_ms: number;
  max_ms: number;
  /** Cumulative counts at each upper bound of LATENCY_BUCKETS: Prometheus's `le` buckets. */
  buckets: Array<[number, number]>;
}

interface Series {
  count: number;
  seconds: number;
  minMs: number;
  maxMs: number;
  /** Observations per bucket, not cumulative; the last counts those above every bound. */
  perBucket: Float64Array;
}

/**
 * Request counts and latency by route pattern, kept in the process. Keyed by the router's
 * patterns, never by the URL a client sent, so there are as many series as routes.
 */
export class RequestFigures {
  private readonly series = new Map<string, Series>();

  record(endpoint: string, ms: number): void {
    let s = this.series.get(endpoint);
    if (!s) {
      s = { count: 0, seconds: 0, minMs: ms, maxMs: ms, perBucket: new Float64Array(LATENCY_BUCKETS.length + 1) };
      this.series.set(endpoint, s);
    }
    const seconds = ms / 1000;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    s.perBucket[i]!++;
    s.count++;
    s.seconds += seconds;
    s.minMs = Math.min(s.minMs, ms);
    s.maxMs = Math.max(s.maxMs, ms);
  }

  read(): EndpointFigures[] {
    return [...this.series].map(([endpoint, s]) => {
      let below = 0;
      return {
        endpoint,
        count: s.count,
        sum_seconds: s.seconds,
        min_ms: s.minMs,
        max_ms: s.maxMs,
        buckets: LATENCY_BUCKETS.map((le, i): [number, number] => [le, (below += s.perBucket[i]!)]),
      };
    });
  }
}
