/** CPU time (user and system, ms) `work` takes: unlike wall time, not lengthened while other processes run. */
function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * How much more CPU `run` takes on `factor` times the size than on the size: about `factor`
 * for linear work, `factor²` for quadratic. The size given is doubled until one run costs at
 * least 5 ms, so that timer resolution and compilation are small beside what is measured;
 * each size then runs until it has taken 200 ms or seven times, and its cheapest run counts.
 */
export function growthRatio(run: (size: number) => void, size: number, factor = 8): number {
  let n = size;
  while (cpuMs(() => run(n)) < 5 && n < size * 1024) n *= 2;
  const cheapest = (m: number) => {
    let best = Infinity;
    let total = 0;
    for (let k = 0; k < 7 && (k === 0 || total < 200); k++) {
      const took = cpuMs(() => run(m));
      total += took;
      best = Math.min(best, took);
    }
    return best;
  };
  return cheapest(n * factor) / cheapest(n);
}

/** GSQL text of about `size` characters in shapes that made splitting it quadratic, or might. */
export const gsqlShapes: Record<string, (size: number) => string> = {
  'line breaks between two strings': (n) => `'a'${'\n'.repeat(n)}'b'`,
  'line breaks between two statements': (n) => `LS${'\n'.repeat(n)}LS`,
  'open brackets': (n) => `CREATE QUERY q ${'(\n{\n'.repeat(n / 4)}`,
  'an unterminated string': (n) => `LS\n"${' x\n'.repeat(n / 3)}`,
};
