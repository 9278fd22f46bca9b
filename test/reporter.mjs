import path from 'node:path';
import process from 'node:process';
import { inspect } from 'node:util';

/**
 * `npm test`'s reporter: one line per test file as it finishes, with its count of tests and
 * how long its process ran; every failure in full as it happens (name, error, stack, expected
 * and actual); skipped tests with their reasons; and a summary whose counts are of tests
 * (suites are not counted), the ten slowest files and the wall time, so that a slow file is
 * seen when it lands. JavaScript, as node loads reporters before any TypeScript loader.
 *
 * Files run in parallel: node reports one file's tests together, but the end of a file's
 * process (a `test:complete` named after the file) may come before or after its tests are
 * reported. A file's line is written once both are in: at that end if the file is the one
 * being reported, else when the next file's tests begin (or the run ends).
 */

const green = (s) => `\x1b[32m${s}\x1b[0m`;
const red = (s) => `\x1b[31m${s}\x1b[0m`;
const dim = (s) => `\x1b[2m${s}\x1b[0m`;
const colour = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (f, s) => (colour ? f(s) : s);
const seconds = (ms) => (ms / 1000).toFixed(1);

function describeError(error) {
  const cause = error?.cause ?? error;
  const text = cause instanceof Error ? (cause.stack ?? cause.message) : inspect(cause, { depth: 6 });
  const e = cause;
  const diff =
    e && typeof e === 'object' && 'expected' in e && e.operator
      ? `\nexpected: ${inspect(e.expected, { depth: 6 })}\nactual:   ${inspect(e.actual, { depth: 6 })}`
      : '';
  return indent(`${text}${diff}`);
}

const indent = (text) =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
/** How much of a file's stderr is kept, to show when its process fails outside any test. */
const STDERR_KEPT = 4000;

export default async function* reporter(source) {
  const started = Date.now();
  const totals = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  const skipped = [];
  const failures = [];
  /** Per file (its absolute path): counts, the names of the suites open in it, its process's duration. */
  const files = new Map();
  const fileOf = (file) => {
    if (!files.has(file))
      files.set(file, {
        passed: 0,
        failed: 0,
        skipped: 0,
        open: [],
        stderr: '',
        ms: undefined,
        ended: false,
        done: false,
      });
    return files.get(file);
  };
  const relative = (file) => path.relative(process.cwd(), file);
  /** The file whose tests are being reported. */
  let current;
  /** The test files of the run, as node announces them. */
  const testFiles = new Set();

  function fileLine(file) {
    const f = fileOf(file);
    if (f.done || f.ms === undefined) return '';
    f.done = true;
    const mark = f.failed > 0 ? paint(red, '✖') : paint(green, '✔');
    const parts = [`${f.passed} passed`];
    if (f.failed) parts.push(`${f.failed} failed`);
    if (f.skipped) parts.push(`${f.skipped} skipped`);
    return `${mark} ${relative(file)} ${paint(dim, `(${parts.join(', ')}; ${seconds(f.ms)} s)`)}\n`;
  }

  for await (const event of source) {
    const { data } = event;
    if (event.type === 'acacia:batch') {
      yield `${paint(dim, `— ${data.message}`)}\n`;
      continue;
    }
    if (!data?.file) continue;
    // The file's own entry is named as it was given (relative to where the run started, or not).
    const isFileEnd = data.nesting === 0 && path.resolve(data.name ?? '') === path.resolve(data.file);
    if (isFileEnd) testFiles.add(path.resolve(data.file));
    // A test's file is where it was declared: a helper's, for a test a helper declares (skip.ts),
    // which belongs to the test file being reported. Paths are absolute, or relative to where
    // the run started (stderr's, when files were given so).
    const declaredIn = path.resolve(data.file);
    const file = testFiles.has(declaredIn) || current === undefined ? declaredIn : current;
    if (event.type === 'test:stderr') {
      // Kept for a file whose process fails outside any test: its stderr says why.
      const f = fileOf(file);
      f.stderr = (f.stderr + data.message).slice(-STDERR_KEPT);
      continue;
    }
    if (event.type === 'test:complete' && isFileEnd) {
      const f = fileOf(file);
      f.ms = data.details?.duration_ms ?? 0;
      if (file === current || f.ended) yield fileLine(file);
      continue;
    }
    if (event.type !== 'test:start' && event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (!isFileEnd && file !== current) {
      if (current) yield fileLine(current);
      current = file;
    }
    const f = fileOf(file);
    if (event.type === 'test:start') {
      f.open[data.nesting] = data.name;
      continue;
    }
    const fileName = relative(file);
    const isSuite = data.details?.type === 'suite';
    const where = isFileEnd ? '(the file)' : [...f.open.slice(0, data.nesting), data.name].join(' › ');
    if (!isSuite && !isFileEnd) {
      if (data.skip !== undefined && data.skip !== false) {
        totals.skipped++;
        f.skipped++;
        skipped.push(`${fileName}: ${where}${typeof data.skip === 'string' ? ` (${data.skip})` : ''}`);
      } else if (data.todo !== undefined && data.todo !== false) totals.todo++;
      else if (event.type === 'test:pass') {
        totals.passed++;
        f.passed++;
      } else {
        totals.failed++;
        f.failed++;
        failures.push(`${fileName}: ${where}`);
        yield `${paint(red, '✖ FAILED')} ${fileName}: ${where}\n${describeError(data.details?.error)}\n`;
      }
    } else if (event.type === 'test:fail' && f.failed === 0) {
      // A suite that failed by itself (a hook threw) with no failed test inside, or a file
      // whose process failed outside any test (it did not load, or exited early).
      totals.failed++;
      f.failed++;
      failures.push(`${fileName}: ${where}`);
      const stderr = isFileEnd && f.stderr ? `\n${paint(dim, indent(`stderr: ${f.stderr.trimEnd()}`))}` : '';
      yield `${paint(red, '✖ FAILED')} ${fileName}: ${where}\n${describeError(data.details?.error)}${stderr}\n`;
    }
    // The file's own pass or fail comes after all its tests.
    if (isFileEnd) {
      f.ended = true;
      yield fileLine(file);
    }
  }
  for (const file of files.keys()) yield fileLine(file);

  const lines = ['', `tests ${totals.passed + totals.failed + totals.skipped + totals.todo}`];
  lines.push(`pass ${totals.passed}`, `fail ${totals.failed}`, `skipped ${totals.skipped}`);
  if (totals.todo) lines.push(`todo ${totals.todo}`);
  const slowest = [...files].filter(([, f]) => f.ms !== undefined).sort(([, a], [, b]) => b.ms - a.ms);
  if (slowest.length > 1) {
    lines.push('', 'slowest files:');
    for (const [file, f] of slowest.slice(0, 10)) lines.push(`  ${seconds(f.ms).padStart(6)} s  ${relative(file)}`);
  }
  lines.push('', `wall time ${seconds(Date.now() - started)} s`);
  if (skipped.length) lines.push('', 'skipped:', ...skipped.map((s) => `  ${s}`));
  if (failures.length) lines.push('', paint(red, 'failed:'), ...failures.map((s) => `  ${s}`));
  yield `${lines.join('\n')}\n`;
}
