/** Where the diagrams put their nodes: plain arithmetic, bounded by the nodes drawn. */

export interface Point {
  x: number;
  y: number;
}

/** `n` points evenly on an ellipse filling the box but for the margin (one node: its centre). */
export function circleLayout(n: number, width: number, height: number, margin: number): Point[] {
  const cx = width / 2;
  const cy = height / 2;
  if (n === 1) return [{ x: cx, y: cy }];
  const rx = Math.max(0, width / 2 - margin);
  const ry = Math.max(0, height / 2 - margin);
  // Starting at the top, so two nodes sit side by side rather than one above the other.
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n - Math.PI / (n === 2 ? 1 : 2);
    return { x: cx + rx * Math.cos(a), y: cy + ry * Math.sin(a) };
  });
}

/**
 * A force layout (linked nodes pull, all nodes push apart) from the circle, for a fixed number of rounds:
 * n² work a round, so callers bound n. Deterministic: the same graph is drawn the same way each time.
 */
export function forceLayout(
  n: number,
  links: ReadonlyArray<readonly [number, number]>,
  width: number,
  height: number,
  margin: number,
  rounds = 150,
): Point[] {
  const points = circleLayout(n, width, height, margin);
  if (n < 3) return points;
  const ideal = Math.sqrt(((width - 2 * margin) * (height - 2 * margin)) / n) * 0.8;
  let step = ideal;
  for (let round = 0; round < rounds; round++) {
    const moves = points.map(() => ({ x: 0, y: 0 }));
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const dx = points[i]!.x - points[j]!.x || 0.01;
        const dy = points[i]!.y - points[j]!.y;
        const d2 = Math.max(dx * dx + dy * dy, 1);
        const push = (ideal * ideal) / d2;
        moves[i]!.x += dx * push;
        moves[i]!.y += dy * push;
        moves[j]!.x -= dx * push;
        moves[j]!.y -= dy * push;
      }
    for (const [a, b] of links) {
      if (a === b) continue;
      const dx = points[a]!.x - points[b]!.x;
      const dy = points[a]!.y - points[b]!.y;
      const d = Math.max(Math.hypot(dx, dy), 1);
      const pull = d / ideal;
      moves[a]!.x -= dx * pull;
      moves[a]!.y -= dy * pull;
      moves[b]!.x += dx * pull;
      moves[b]!.y += dy * pull;
    }
    moves.forEach((m, i) => {
      const len = Math.max(Math.hypot(m.x, m.y), 1e-9);
      const p = points[i]!;
      p.x = Math.min(width - margin, Math.max(margin, p.x + (m.x / len) * Math.min(len, step)));
      p.y = Math.min(height - margin, Math.max(margin, p.y + (m.y / len) * Math.min(len, step)));
    });
    step = Math.max(step * 0.95, 1);
  }
  return points;
}
