/**
 * Whether the server answered the last request (any answer, a refusal included) or could not
 * be reached at all. The shell shows a banner while it cannot; pages keep what they last had.
 */
let reachable = true;
const listeners = new Set<(reachable: boolean) => void>();

export function reportReachable(now: boolean): void {
  if (now === reachable) return;
  reachable = now;
  for (const listener of [...listeners]) listener(now);
}

export function isReachable(): boolean {
  return reachable;
}

export function onReachable(listener: (reachable: boolean) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
