/**
 * Runs `hostile` while another client asks `probeUrl` again and again, and says how long the
 * slowest of those answers took: a request that blocks the event loop shows as a slow probe,
 * whichever part of the process it blocks.
 */
export async function slowestAnswerDuring<T>(
  probeUrl: string,
  hostile: () => Promise<T>,
): Promise<{ result: T; slowestMs: number; probes: number }> {
  let done = false;
  let slowestMs = 0;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(probeUrl);
      await res.arrayBuffer();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      probes++;
    }
  })();
  try {
    return { result: await hostile(), slowestMs, probes };
  } finally {
    done = true;
    await probing;
  }
}
