import path from 'node:path';
import process from 'node:process';
import { inspect } from 'node:util';

/**
 * `npm test`'s reporter: one line per test file as it finishes, every failure in full as it
 * happens (name, error, stack, expected and actual), skipped tests with their reasons, and
 * a summary whose counts are of tests (suites are not counted). JavaScript, as node loads
 * reporters before any TypeScript loader.
 */

const green = (s) => `\x1b[32m${s}\x1b[0m`;
const red = (s) => `\x1b[31m${s}\x1b[0m`;
const dim = (s) => `\x1b[2m${s}\x1b[0m`;
const colour = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (f, s) => (colour ? f(s) : s);

function describeError(error) {
  const cause = error?.cause ?? error;
  const text = cause instanceof Error ? (cause.stack ?? cause.message) : inspect(cause, { depth: 6 });
  const e = cause;
  const diff =
    e && typeof e === 'object' && 'expected' in e && e.operator
      ? `\nexpected: ${inspect(e.expected, { depth: 6 })}\nactual:   ${inspect(e.actual, { depth: 6 })}`
      : '';
  return `${text}${diff}`
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}

export default async function* reporter(source) {
  const started = Date.now();
  const totals = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  const skipped = [];
  const failures = [];
  /** Counts of the file running now, and the names of the suites open in it. */
  let file = { passed: 0, failed: 0, skipped: 0 };
  const open = [];
  let fileName = '';

  for await (const event of source) {
    const { data } = event;
    if (event.type === 'test:start') {
      open[data.nesting] = data.name;
      if (data.file && data.nesting === 0) fileName = path.relative(process.cwd(), data.file);
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const isSuite = data.details?.type === 'suite';
    const where = [...open.slice(0, data.nesting), data.name].join(' › ');
    if (!isSuite) {
      if (data.skip !== undefined && data.skip !== false) {
        totals.skipped++;
        file.skipped++;
        skipped.push(`${fileName}: ${where}${typeof data.skip === 'string' ? ` (${data.skip})` : ''}`);
      } else if (data.todo !== undefined && data.todo !== false) totals.todo++;
      else if (event.type === 'test:pass') {
        totals.passed++;
        file.passed++;
      } else {
        totals.failed++;
        file.failed++;
        const report = `${paint(red, '✖ FAILED')} ${fileName}: ${where}\n${describeError(data.details?.error)}\n`;
        failures.push(`${fileName}: ${where}`);
        yield report;
      }
    } else if (event.type === 'test:fail' && file.failed === 0) {
      // A suite that failed by itself (a hook threw) with no failed test inside.
      totals.failed++;
      file.failed++;
      failures.push(`${fileName}: ${where}`);
      yield `${paint(red, '✖ FAILED')} ${fileName}: ${where}\n${describeError(data.details?.error)}\n`;
    }
    if (data.nesting === 0) {
      const seconds = ((data.details?.duration_ms ?? 0) / 1000).toFixed(1);
      const mark = file.failed > 0 ? paint(red, '✖') : paint(green, '✔');
      const parts = [`${file.passed} passed`];
      if (file.failed) parts.push(`${file.failed} failed`);
      if (file.skipped) parts.push(`${file.skipped} skipped`);
      yield `${mark} ${fileName || data.name} ${paint(dim, `(${parts.join(', ')}; ${seconds} s)`)}\n`;
      file = { passed: 0, failed: 0, skipped: 0 };
    }
  }

  const lines = ['', `tests ${totals.passed + totals.failed + totals.skipped + totals.todo}`];
  lines.push(`pass ${totals.passed}`, `fail ${totals.failed}`, `skipped ${totals.skipped}`);
  if (totals.todo) lines.push(`todo ${totals.todo}`);
  lines.push(`duration ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (skipped.length) lines.push('', 'skipped:', ...skipped.map((s) => `  ${s}`));
  if (failures.length) lines.push('', paint(red, 'failed:'), ...failures.map((s) => `  ${s}`));
  yield `${lines.join('\n')}\n`;
}
