/** CPU time (user and system, ms) `work` takes: unlike wall time, not lengthened while other processes run. */
function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** How far apart the two sizes measured are: wide, so that linear and quadratic work differ by far more than noise. */
const SPAN = 64;
/** The largest size measured, so a test's text stays a few tens of megabytes at most. */
const MAX_SIZE = 1 << 25;

/**
 * The exponent k of cost ∝ size^k that `run` shows between a size and 64 times it: near 1
 * for linear work (a little over, as larger data misses the processor's caches more), 2 for
 * quadratic. The size given is doubled until a warm run costs at least 2 ms of CPU, so that
 * timing resolution and compilation are small beside what is measured; each size then runs
 * until it has taken 200 ms or seven times, and its cheapest run counts.
 */
export function growthExponent(run: (size: number) => void, size: number): number {
  let n = size;
  // A first run compiles what it calls, and one run alone may meet a collection: the size is
  // chosen on warm runs, the cheaper of two, so that it is not left far below the 2 ms sought.
  run(n);
  const warm = (m: number) =>
    Math.min(
      cpuMs(() => run(m)),
      cpuMs(() => run(m)),
    );
  while (n * SPAN * 2 <= MAX_SIZE && warm(n) < 2) n *= 2;
  const cheapest = (m: number) => {
    let best = Infinity;
    let total = 0;
    for (let k = 0; k < 7 && (k === 0 || total < 200); k++) {
      const took = cpuMs(() => run(m));
      total += took;
      best = Math.min(best, took);
    }
    return Math.max(best, 0.001);
  };
  return Math.log(cheapest(n * SPAN) / cheapest(n)) / Math.log(SPAN);
}

/** Below this a cost is taken for linear; quadratic work shows 2. */
export const LINEAR_EXPONENT = 1.5;

/** GSQL text of about `size` characters in shapes that made splitting it quadratic, or might. */
export const gsqlShapes: Record<string, (size: number) => string> = {
  'line breaks between two strings': (n) => `'a'${'\n'.repeat(n)}'b'`,
  'line breaks between two statements': (n) => `LS${'\n'.repeat(n)}LS`,
  'open brackets': (n) => `CREATE QUERY q ${'(\n{\n'.repeat(n / 4)}`,
  'an unterminated string': (n) => `LS\n"${' x\n'.repeat(n / 3)}`,
};
