import v8 from 'node:v8';
import { QueryRuntimeError } from './values.js';

/**
 * A query runs in the data-plane process's heap, beside the graph and every other request: one
 * that outgrew the heap would end the process for all of them. So a run is stopped, with an
 * error and nothing it wrote kept, once the heap in use passes HEAP_SHARE of the process's limit.
 *
 * The heap is looked at with the deadline (every 1,024 steps of a run), and before a collection's
 * `+=`, `+` or `=` copies elements, every CHECK_EVERY of them, counting what the copy will take:
 * a loop that doubles a list outgrows any heap in a few dozen steps, and the last doubling must
 * be refused before it starts. A string grows the same way (`s = s + s`): a character counts
 * 1/16 of an element, and none grows past MAX_STRING_CHARS.
 */
const HEAP_SHARE = 0.75;
const CHECK_EVERY = 1 << 16;
/** What an element copied takes: a slot of 8 bytes, in an array grown by half again when full. */
const BYTES_PER_ELEMENT = 16;
export const MAX_STRING_CHARS = 1 << 24;

const MIB = 1024 * 1024;

/**
 * The heap the process may fill: the old generation's size it was started with (the local driver
 * gives each workspace's process one). V8's own limit adds the young generation's reserve, which
 * never holds what a query keeps: a process runs out of memory well before the heap in use reaches it.
 */
function heapLimitOf(): number {
  for (const arg of process.execArgv) {
    const size = /^--max-old-space-size=(\d+)$/.exec(arg);
    if (size) return Number(size[1]) * MIB;
  }
  return v8.getHeapStatistics().heap_size_limit;
}

export const heapLimit = heapLimitOf();
let copied = 0;

/**
 * `gc()`: data-plane processes are started with `--expose-gc`, so that the heap in use can be
 * told apart from garbage not yet collected. Elsewhere (a query run in a test's own process)
 * the heap in use is all there is to go by.
 */
const collect = (globalThis as { gc?: () => void }).gc;
/** At most one full collection of the guard's own per this many ms: each costs some ms of a large heap. */
const COLLECT_GAP_MS = 250;
/** Between two of them, the heap in use may pass HEAP_SHARE up to this share of the limit. */
const BETWEEN_COLLECTIONS_SHARE = 0.9;
let lastCollection = -Infinity;

const heapUsed = () => v8.getHeapStatistics().used_heap_size;

/**
 * Throws when the heap in use, with `adding` bytes more, passes the share a query may take it to.
 * Past that share, a full collection first says how much of it the process really holds: a
 * query that makes much garbage and keeps little goes on.
 */
export function checkHeap(adding = 0): void {
  let used = heapUsed() + adding;
  if (used <= HEAP_SHARE * heapLimit) return;
  if (performance.now() - lastCollection < COLLECT_GAP_MS && used <= BETWEEN_COLLECTIONS_SHARE * heapLimit) return;
  if (collect) {
    collect();
    lastCollection = performance.now();
    used = heapUsed() + adding;
    if (used <= HEAP_SHARE * heapLimit) return;
  }
  throw new QueryRuntimeError(
    `The query was stopped: the data-plane process's heap would be ${Math.round(used / MIB)} MiB in use ` +
      `of ${Math.round(heapLimit / MIB)} MiB, over the ${HEAP_SHARE * 100}% a running query may take it to.`,
  );
}

/** Counts `n` elements about to be copied; every CHECK_EVERY of them, the heap is looked at. */
export function copying(n: number): void {
  copied += n;
  if (copied >= CHECK_EVERY) {
    copied = 0;
    checkHeap(n * BYTES_PER_ELEMENT);
  }
}

/** A string a query made, refused past MAX_STRING_CHARS and counted as copied. */
export function madeString(s: string): string {
  if (s.length > MAX_STRING_CHARS)
    throw new QueryRuntimeError(`A string of a query holds at most ${MAX_STRING_CHARS} characters, not ${s.length}.`);
  copying(s.length >>> 4);
  return s;
}
