import type { MetricFamily } from '../domain/workspace-metrics.js';

/** HELP text: backslash and line feed escaped (text format 0.0.4). */
const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** A label value: backslash, double quote and line feed escaped. */
const escapeLabel = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function number(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** Metric families in the Prometheus text exposition format 0.0.4: HELP and TYPE, then each sample. */
export function prometheusText(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      const labels = Object.entries(s.labels)
        .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
        .join(',');
      lines.push(`${s.name}${labels ? `{${labels}}` : ''} ${number(s.value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
