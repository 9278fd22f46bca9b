import { stringify as toYaml } from 'yaml';
import type { Output } from './context.js';

type Row = Record<string, unknown>;

/** How records of one kind are shown: the id `-q` prints, and the columns of a table. */
export interface View {
  id: (record: Row) => unknown;
  columns: ReadonlyArray<readonly [header: string, value: (record: Row) => unknown]>;
}

/** A view of the given fields, the first being the id. */
export function fields(id: string, ...more: string[]): View {
  return {
    id: (r) => r[id],
    columns: [id, ...more].map((f) => [f.toUpperCase(), (r: Row) => r[f]] as const),
  };
}

const cell = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(cell).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

/** Columns padded to their widest cell, like `kubectl get`. */
export function table(headers: readonly string[], rows: readonly string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** The scalar fields of one record, a field a line (nested values as JSON). */
function recordTable(record: Row): string {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  return Object.entries(record)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k.padEnd(width)}  ${Array.isArray(v) && v.length > 3 ? `(${v.length} items)` : cell(v)}`)
    .join('\n');
}

/** Prints a command's result as the context asks: ids only (-q), JSON, YAML or a table. */
export function render(ctx: Output, result: unknown, view?: View): void {
  if (result === undefined) return;
  const isRecord = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (ctx.quiet) {
    const ids = (Array.isArray(result) ? result : [result]).map((r) => (isRecord(r) && view ? view.id(r) : r));
    const text = ids.map(cell).join('\n');
    if (text) ctx.out(text);
    return;
  }
  if (ctx.format === 'json') return ctx.out(JSON.stringify(result, null, 2));
  if (ctx.format === 'yaml') return ctx.out(toYaml(result));
  if (Array.isArray(result) && view) {
    ctx.out(
      table(
        view.columns.map(([h]) => h),
        result.map((r) => view.columns.map(([, value]) => cell(value(r as Row)))),
      ),
    );
    return;
  }
  if (isRecord(result)) return ctx.out(recordTable(result));
  if (Array.isArray(result)) return ctx.out(result.map(cell).join('\n'));
  ctx.out(cell(result));
}
