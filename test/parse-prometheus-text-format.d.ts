/** The little of parse-prometheus-text-format (1.1.1, untyped) the metrics tests use. */
declare module 'parse-prometheus-text-format' {
  export interface ParsedMetric {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedMetric[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
