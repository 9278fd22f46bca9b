import { useId } from 'react';
import type { DrawnEdge, DrawnNode } from './drawing.js';
import type { Point } from './layout.js';

export type { DrawnEdge, DrawnNode };

const PALETTE = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#4d7c0f', '#be185d'];
const RADIUS = 22;

/** The path of an edge: curved apart from the other edges of its pair, a loop for an edge to its own node. */
function edgePath(a: Point, b: Point, lane: number, loop: boolean): { d: string; mid: Point } {
  if (loop) {
    const size = 36 + lane * 16;
    const d = `M ${a.x - 8} ${a.y - RADIUS + 2} C ${a.x - size} ${a.y - RADIUS - size}, ${a.x + size} ${
      a.y - RADIUS - size
    }, ${a.x + 8} ${a.y - RADIUS + 2}`;
    return { d, mid: { x: a.x, y: a.y - RADIUS - size * 0.75 } };
  }
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.max(Math.hypot(dx, dy), 1);
  // The control point sits off the straight line, by lane: lane 0 is straight.
  const offset = lane * 30;
  const c = { x: (a.x + b.x) / 2 - (dy / len) * offset, y: (a.y + b.y) / 2 + (dx / len) * offset };
  // End at the circles' rims, along the curve's tangents, so arrowheads show.
  const trim = (p: Point, toward: Point) => {
    const l = Math.max(Math.hypot(toward.x - p.x, toward.y - p.y), 1);
    return { x: p.x + ((toward.x - p.x) / l) * (RADIUS + 2), y: p.y + ((toward.y - p.y) / l) * (RADIUS + 2) };
  };
  const s = trim(a, c);
  const e = trim(b, c);
  return {
    d: `M ${s.x} ${s.y} Q ${c.x} ${c.y} ${e.x} ${e.y}`,
    mid: { x: (s.x + 2 * c.x + e.x) / 4, y: (s.y + 2 * c.y + e.y) / 4 },
  };
}

/** Lanes for parallel edges: the k-th edge of a pair of nodes gets lane 0, 1, -1, 2, -2… */
function lanes(edges: readonly DrawnEdge[]): number[] {
  const seen = new Map<string, number>();
  return edges.map((e) => {
    const key = e.from < e.to ? `${e.from}:${e.to}` : `${e.to}:${e.from}`;
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    if (e.from === e.to) return k;
    const lane = k % 2 === 0 ? k / 2 : -(k + 1) / 2;
    // The same lane means the same side whichever way the edge runs.
    return e.from < e.to ? lane : -lane;
  });
}

/** A graph drawn in SVG: nodes as labelled circles, edges as arrows (undirected ones without heads). */
export function GraphSvg({
  nodes,
  edges,
  points,
  width,
  height,
  title,
  testId,
}: {
  nodes: readonly DrawnNode[];
  edges: readonly DrawnEdge[];
  points: readonly Point[];
  width: number;
  height: number;
  title: string;
  testId?: string;
}) {
  const arrow = `arrow-${useId().replace(/:/g, '')}`;
  const edgeLanes = lanes(edges);
  return (
    <div className="graph-scroll">
      <svg
        className="graph-svg"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={title}
        data-testid={testId}
        preserveAspectRatio="xMidYMid meet"
      >
        <title>{title}</title>
        <defs>
          <marker id={arrow} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
            <path d="M 0 0 L 10 5 L 0 10 z" className="graph-arrow" />
          </marker>
        </defs>
        {edges.map((e, i) => {
          const a = points[e.from];
          const b = points[e.to];
          if (!a || !b) return null;
          const { d, mid } = edgePath(a, b, edgeLanes[i]!, e.from === e.to);
          return (
            <g key={`e${i}`} className="graph-edge" data-edge={e.label}>
              <path d={d} fill="none" markerEnd={e.directed ? `url(#${arrow})` : undefined} />
              {e.label ? (
                <text x={mid.x} y={mid.y - 4} textAnchor="middle" className="graph-edge-label">
                  {e.label}
                </text>
              ) : null}
            </g>
          );
        })}
        {nodes.map((n, i) => {
          const p = points[i];
          if (!p) return null;
          return (
            <g key={`n${i}`} className="graph-node" data-node={n.label}>
              <circle cx={p.x} cy={p.y} r={RADIUS} fill={PALETTE[n.colour % PALETTE.length]} />
              <text x={p.x} y={p.y + RADIUS + 14} textAnchor="middle" className="graph-node-label">
                {n.label}
              </text>
              {n.detail ? (
                <text x={p.x} y={p.y + RADIUS + 28} textAnchor="middle" className="graph-node-detail">
                  {n.detail}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
