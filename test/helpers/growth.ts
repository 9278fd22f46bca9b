import { performance } from 'node:perf_hooks';

/**
 * How much longer `run` takes on `factor` times the size than on the size: about `factor`
 * for linear work, `factor²` for quadratic. Each size runs until it has taken 200 ms or seven
 * times, and its fastest run counts, so a pause of the machine does not decide the outcome.
 */
export function growthRatio(run: (size: number) => void, size: number, factor = 8): number {
  const fastest = (n: number) => {
    let best = Infinity;
    let total = 0;
    for (let k = 0; k < 7 && (k === 0 || total < 200); k++) {
      const started = performance.now();
      run(n);
      const took = performance.now() - started;
      total += took;
      best = Math.min(best, took);
    }
    return best;
  };
  fastest(size); // the first runs compile the code
  return fastest(size * factor) / fastest(size);
}

/** GSQL text of about `size` characters in shapes that made splitting it quadratic, or might. */
export const gsqlShapes: Record<string, (size: number) => string> = {
  'line breaks between two strings': (n) => `'a'${'\n'.repeat(n)}'b'`,
  'line breaks between two statements': (n) => `LS${'\n'.repeat(n)}LS`,
  'open brackets': (n) => `CREATE QUERY q ${'(\n{\n'.repeat(n / 4)}`,
  'an unterminated string': (n) => `LS\n"${' x\n'.repeat(n / 3)}`,
};
