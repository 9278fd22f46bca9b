import type { MixedRow } from './mixed-bench.js';
import type { ApiRow } from './api-bench.js';
import type { IdleRow } from './idle-bench.js';
import type { LoadResult } from './load.js';
import type { StepRow } from './lifecycle-steps.js';
import type { ScaleRow } from './scale-bench.js';

const MiB = 1024 * 1024;

/** A Markdown table: it reads as text in a terminal and pastes into the README as it is. */
export function markdownTable(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map((_, i) => (i < 2 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

const int = (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en'));
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
/** autocannon's latencies are whole milliseconds; 0 means under one. */
const lat = (n: number) => (n === 0 ? '<1' : String(Math.round(n)));
const size = (bytes: number) =>
  bytes >= MiB ? `${(bytes / MiB).toFixed(1)} MiB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} B`;
const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');
const flag = (failures: number) => (failures > 0 ? ` (${failures} failed)` : '');

const cpu = (r: LoadResult) => (r.cpuPerRequestUs !== undefined ? int(r.cpuPerRequestUs) : '–');

export function apiTable(rows: ApiRow[]): string {
  return markdownTable(
    [
      'scenario',
      'store',
      'response',
      'req/s',
      'p50 / p99 ms',
      'CPU µs/req',
      'statements/req',
      'peak RSS',
      'minimal req/s (CPU µs/req)',
      '÷ minimal',
      'node:http req/s',
      '÷ node:http',
    ],
    rows.map((r) => [
      r.scenario,
      r.store,
      size(r.bytes),
      int(r.acacia.rps) + flag(r.acacia.failures),
      `${lat(r.acacia.p50)} / ${lat(r.acacia.p99)}`,
      cpu(r.acacia),
      r.acacia.statementsPerRequest !== undefined ? r.acacia.statementsPerRequest.toFixed(1) : '–',
      mib(r.peakRss),
      r.minimal ? `${int(r.minimal.rps)}${flag(r.minimal.failures)} (${cpu(r.minimal)})` : '–',
      r.minimal ? ratio(r.acacia.rps, r.minimal.rps) : '–',
      int(r.baseline.rps) + flag(r.baseline.failures),
      ratio(r.acacia.rps, r.baseline.rps),
    ]),
  );
}

export function scaleTable(rows: ScaleRow[]): string {
  const body = rows.map((r) => [
    r.schedules.toLocaleString('en'),
    r.store,
    r.workspaces.toLocaleString('en'),
    `${ms(r.ticks.idleP50)} / ${ms(r.ticks.idleP99)}`,
    ms(r.ticks.batch),
    ms(r.ticks.engineIdleP50),
    `${int(r.list.rps)}${flag(r.list.failures)}, ${lat(r.list.p50)} / ${lat(r.list.p99)}`,
    `${int(r.one.rps)}${flag(r.one.failures)}, ${lat(r.one.p50)} / ${lat(r.one.p99)}`,
    mib(r.peakRss),
  ]);
  // Growth from the smallest to the largest size, per store: the target is at most 2×.
  for (const store of [...new Set(rows.map((r) => r.store))]) {
    const mine = rows.filter((r) => r.store === store);
    const [a, b] = [mine[0]!, mine[mine.length - 1]!];
    if (a === b) continue;
    const g = (x: number, y: number) => ratio(y, x);
    body.push([
      `growth ${b.schedules / 1000}k ÷ ${a.schedules / 1000}k`,
      store,
      '',
      `${g(a.ticks.idleP50, b.ticks.idleP50)} / ${g(a.ticks.idleP99, b.ticks.idleP99)}`,
      g(a.ticks.batch, b.ticks.batch),
      g(a.ticks.engineIdleP50, b.ticks.engineIdleP50),
      `${g(a.list.p50, b.list.p50)} / ${g(a.list.p99, b.list.p99)}`,
      `${g(a.one.p50, b.one.p50)} / ${g(a.one.p99, b.one.p99)}`,
      g(a.peakRss, b.peakRss),
    ]);
  }
  return markdownTable(
    [
      'schedules',
      'store',
      'workspaces',
      'scheduler tick, none due, p50 / p99 ms',
      `scheduler tick firing ${rows[0]?.ticks.batchSize ?? 50}, ms`,
      'engine tick, none due, p50 ms',
      'GET schedules list: req/s, p50 / p99 ms',
      'GET one schedule: req/s, p50 / p99 ms',
      'peak RSS',
    ],
    body,
  );
}

export function stepsTable(rows: StepRow[]): string {
  return markdownTable(
    ['step', 'store', 'runs', 'p50 ms', 'max ms'],
    rows.map((r) => [r.step, r.store, String(r.runs), ms(r.p50), ms(r.max)]),
  );
}

/** The mixed workload: throughput, latency of reads and writes, and the server's cost per request. */
export function mixedTable(rows: MixedRow[]): string {
  const ms = (n: number) => (n < 1 ? '<1' : n.toFixed(1));
  return markdownTable(
    [
      'store',
      'server',
      'req/s',
      'reads p50 / p99 ms',
      'writes p50 / p99 ms',
      'CPU µs per request',
      'statements per request',
      'failures',
    ],
    rows.map((r) => [
      r.store,
      r.server,
      Math.round(r.rps).toLocaleString('en'),
      `${ms(r.reads.p50)} / ${ms(r.reads.p99)}`,
      `${ms(r.writes.p50)} / ${ms(r.writes.p99)}`,
      Math.round(r.cpuPerRequestUs).toLocaleString('en'),
      r.statementsPerRequest === undefined ? '—' : r.statementsPerRequest.toFixed(2),
      String(r.failures),
    ]),
  );
}

export function idleTable(rows: IdleRow[]): string {
  return markdownTable(
    ['store', 'Active workspaces', 'seconds', 'server CPU ms per minute', 'statements per minute'],
    rows.map((r) => [
      r.store,
      String(r.workspaces),
      String(r.seconds),
      int(r.cpuMsPerMinute),
      int(r.statementsPerMinute),
    ]),
  );
}
