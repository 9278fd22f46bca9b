import type { EdgeView, StoredEdgeType, StoredVertexType } from './catalog.js';
import type { EdgeOut, EdgeRow } from './edge-ops.js';
import { fail } from './errors.js';
import type { GraphStore } from './graph-store.js';
import { attributeMap, matches, parseFilter, type Condition } from './query-params.js';
import type { AttributeValue, GraphDef } from './schema-types.js';
import { getVertex, urlVertexId } from './vertex-ops.js';
import { isJsonObject } from './json-object.js';

/**
 * `POST /shortestpath/{graph}` and `POST /allpaths/{graph}`, as pyTigerGraph's shortestPath()
 * and allPaths() send them: `{sources, targets, vertexFilters?, edgeFilters?, maxLength?,
 * allShortestPaths?}`. The answer is one subgraph, `{vertices, edges}`, the union of the paths
 * found. Directed edges are followed FROM→TO (a reverse edge name is not a second way back),
 * undirected edges either way.
 *
 * Both are two breadth-first searches, from the sources forwards and from the targets
 * backwards, each at most `maxLength` deep: an edge u→v lies on a path of length L when
 * dist(source, u) + 1 + dist(v, target) = L. So the cost is linear in the part of the graph
 * within reach, and a search that would visit more than MAX_PATH_VISITS vertices and edges is
 * refused rather than run on. Unlike TigerGraph's allpaths, which keeps simple paths only, an
 * edge counts when some walk of at most `maxLength` edges through it joins a source to a
 * target; the two differ only where a cycle fits within `maxLength`.
 */

/** TigerGraph's default `maxLength`. */
export const DEFAULT_MAX_LENGTH = 6;
/** The longest `maxLength` accepted. */
export const MAX_PATH_LENGTH = 100;
/** Vertices and edges one search may visit, its two directions together. */
export const MAX_PATH_VISITS = 2_000_000;

interface PathRequest {
  sources: VertexRef[];
  targets: VertexRef[];
  vertexFilters: Map<string, Condition[]>;
  edgeFilters: Map<string, Condition[]>;
  maxLength: number;
  allShortestPaths: boolean;
}

interface VertexRef {
  type: StoredVertexType;
  id: string;
}

/** One edge row crossed in a search: `from` → `to` in the direction it was followed. */
interface Step {
  rowid: number;
  type: StoredEdgeType;
  from: string;
  to: string;
  storedFrom: VertexRef;
  storedTo: VertexRef;
  attrs: string;
}

const keyOf = (v: VertexRef): string => `${v.type.id}:${v.id}`;

function readVertices(store: GraphStore, graph: GraphDef, value: unknown, field: string): VertexRef[] {
  if (!Array.isArray(value) || value.length === 0)
    return fail('invalidPayload', `The path-finding parameter '${field}' must be a non-empty list of vertices.`);
  if (value.length > MAX_PATH_VISITS)
    return fail('invalidPayload', `The path-finding parameter '${field}' lists more than ${MAX_PATH_VISITS} vertices.`);
  return value.map((v) => {
    if (!isJsonObject(v) || typeof v.type !== 'string' || (typeof v.id !== 'string' && typeof v.id !== 'number'))
      return fail('invalidPayload', `Each vertex of '${field}' must be {"type": <vertex type>, "id": <vertex id>}.`);
    const type = store.vertexType(graph, v.type);
    return { type, id: urlVertexId(type, String(v.id)) };
  });
}

function readFilters(
  value: unknown,
  field: string,
  typeOf: (name: string) => { attributes: StoredVertexType['attributes'] },
): Map<string, Condition[]> {
  const filters = new Map<string, Condition[]>();
  if (value === undefined) return filters;
  if (!Array.isArray(value))
    return fail('invalidPayload', `The path-finding parameter '${field}' must be a list of {type, condition}.`);
  for (const f of value) {
    if (!isJsonObject(f) || typeof f.type !== 'string' || typeof f.condition !== 'string')
      return fail('invalidPayload', `Each filter of '${field}' must be {"type": <type>, "condition": <condition>}.`);
    const conditions = parseFilter(f.condition, attributeMap(typeOf(f.type).attributes));
    const list = filters.get(f.type);
    if (list) for (const c of conditions) list.push(c);
    else filters.set(f.type, conditions);
  }
  return filters;
}

export function readPathRequest(
  store: GraphStore,
  graph: GraphDef,
  body: unknown,
  lengthRequired: boolean,
): PathRequest {
  if (!isJsonObject(body)) return fail('invalidPayload', 'The path-finding request must be a JSON object.');
  let maxLength = DEFAULT_MAX_LENGTH;
  if (body.maxLength !== undefined) {
    const n = body.maxLength;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_PATH_LENGTH)
      return fail(
        'invalidPayload',
        `The path-finding parameter 'maxLength' must be a whole number from 1 to ${MAX_PATH_LENGTH}.`,
      );
    maxLength = n;
  } else if (lengthRequired) return fail('invalidPayload', "The path-finding parameter 'maxLength' is required.");
  const edgeViews = new Map(store.catalog.edgeViewsOf(graph).map((v) => [v.name, v]));
  const edgeType = (name: string): EdgeView =>
    edgeViews.get(name) ??
    fail(
      'invalidPayload',
      `The input parameter edge_type = '${name}' is not a valid edge type in graph '${graph.name}'.`,
    );
  return {
    sources: readVertices(store, graph, body.sources, 'sources'),
    targets: readVertices(store, graph, body.targets, 'targets'),
    vertexFilters: readFilters(body.vertexFilters, 'vertexFilters', (n) => store.vertexType(graph, n)),
    edgeFilters: readFilters(body.edgeFilters, 'edgeFilters', (n) => edgeType(n).type),
    maxLength,
    allShortestPaths: body.allShortestPaths === true,
  };
}

/** The searches over one graph, with the vertex reads they share. */
class PathSearch {
  private readonly edgeTypes: Map<number, StoredEdgeType>;
  private readonly vertexAttrs = new Map<string, string | undefined>();
  private readonly fromStmt;
  private readonly toStmt;
  visits = 0;

  constructor(
    private readonly store: GraphStore,
    graph: GraphDef,
    private readonly req: PathRequest,
  ) {
    this.edgeTypes = new Map(
      store.catalog
        .edgeViewsOf(graph)
        .filter((v) => !v.reversed)
        .map((v) => [v.type.id, v.type]),
    );
    this.fromStmt = store.db.prepare('SELECT rowid, * FROM edges WHERE from_type = ? AND from_id = ?');
    this.toStmt = store.db.prepare('SELECT rowid, * FROM edges WHERE to_type = ? AND to_id = ?');
  }

  private count(n = 1): void {
    this.visits += n;
    if (this.visits > MAX_PATH_VISITS)
      fail(
        'invalidPayload',
        `The path search visited more than ${MAX_PATH_VISITS} vertices and edges; give a smaller maxLength or filters.`,
      );
  }

  /** The vertex's attributes (JSON) when it exists and passes the filters of its type; else undefined. */
  attrsIfAllowed(v: VertexRef): string | undefined {
    const key = keyOf(v);
    if (this.vertexAttrs.has(key)) return this.vertexAttrs.get(key);
    this.count();
    let attrs = getVertex(this.store, v.type, v.id);
    const conditions = this.req.vertexFilters.get(v.type.name);
    if (attrs !== undefined && conditions && !matches(conditions, JSON.parse(attrs) as Record<string, AttributeValue>))
      attrs = undefined;
    this.vertexAttrs.set(key, attrs);
    return attrs;
  }

  /** The edges that may be followed from `v`, forwards (or, `backwards`, those arriving at it). */
  private steps(v: VertexRef, backwards: boolean): Step[] {
    const steps: Step[] = [];
    const vertexType = (id: number) => this.store.catalog.vertexTypesById.get(id)!;
    const add = (row: EdgeRow, leaving: boolean) => {
      this.count();
      const type = this.edgeTypes.get(row.type_id);
      if (!type) return;
      // A directed edge goes one way only: out of `v` forwards, into `v` backwards.
      if (type.directed && leaving === backwards) return;
      const conditions = this.req.edgeFilters.get(type.name);
      if (conditions && !matches(conditions, JSON.parse(row.attrs) as Record<string, AttributeValue>)) return;
      const storedFrom = { type: vertexType(row.from_type), id: row.from_id };
      const storedTo = { type: vertexType(row.to_type), id: row.to_id };
      const far = leaving ? storedTo : storedFrom;
      if (this.attrsIfAllowed(far) === undefined) return;
      const [a, b] = backwards ? [far, v] : [v, far];
      steps.push({ rowid: row.rowid, type, from: keyOf(a), to: keyOf(b), storedFrom, storedTo, attrs: row.attrs });
    };
    for (const row of this.fromStmt.iterate(v.type.id, v.id) as Iterable<EdgeRow>) add(row, true);
    for (const row of this.toStmt.iterate(v.type.id, v.id) as Iterable<EdgeRow>) {
      // A self-loop is one row: read once, from its FROM side.
      if (row.from_type === row.to_type && row.from_id === row.to_id) continue;
      add(row, false);
    }
    return steps;
  }

  /**
   * Breadth-first from `starts`, `depth` edges at most: each vertex's distance and the steps
   * crossed (each in the direction of travel from the sources).
   */
  bfs(starts: VertexRef[], depth: number, backwards: boolean): { dist: Map<string, number>; steps: Step[] } {
    const dist = new Map<string, number>();
    let frontier: VertexRef[] = [];
    for (const s of starts) {
      const key = keyOf(s);
      if (dist.has(key) || this.attrsIfAllowed(s) === undefined) continue;
      dist.set(key, 0);
      frontier.push(s);
    }
    const steps: Step[] = [];
    for (let d = 0; d < depth && frontier.length > 0; d++) {
      const next: VertexRef[] = [];
      for (const v of frontier)
        for (const step of this.steps(v, backwards)) {
          steps.push(step);
          const farKey = backwards ? step.from : step.to;
          if (dist.has(farKey)) continue;
          const far = farKey === keyOf(step.storedTo) ? step.storedTo : step.storedFrom;
          dist.set(farKey, d + 1);
          next.push(far);
        }
      frontier = next;
    }
    return { dist, steps };
  }
}

export interface PathSubgraph {
  vertices: { v_id: string; v_type: string; attributes: Record<string, AttributeValue> }[];
  edges: EdgeOut[];
}

/** The paths between the request's sources and targets: the shortest (one, or all) or all of at most maxLength. */
export function findPaths(store: GraphStore, graph: GraphDef, req: PathRequest, all: boolean): PathSubgraph {
  const search = new PathSearch(store, graph, req);
  const forward = search.bfs(req.sources, req.maxLength, false);
  const targetKeys = req.targets.map(keyOf);
  // A loop, not Math.min(...list): a long list of targets would overflow the call stack.
  let shortest = Infinity;
  for (const k of targetKeys) shortest = Math.min(shortest, forward.dist.get(k) ?? Infinity);
  if (shortest === Infinity) return { vertices: [], edges: [] };
  const limit = all ? req.maxLength : shortest;
  const backward = search.bfs(req.targets, limit, true);
  const onPath = (s: Step) => {
    const before = forward.dist.get(s.from);
    const after = backward.dist.get(s.to);
    if (before === undefined || after === undefined) return false;
    return all ? before + 1 + after <= limit : before + 1 + after === shortest;
  };
  let chosen = forward.steps.filter(onPath);
  if (!all && !req.allShortestPaths) chosen = onePath(chosen, forward.dist, targetKeys, shortest);
  return subgraph(search, req, chosen, shortest === 0 ? targetKeys.filter((k) => forward.dist.get(k) === 0) : []);
}

/** One shortest path out of the steps on shortest paths: walked back from a target reached at `length`. */
function onePath(steps: Step[], dist: Map<string, number>, targets: string[], length: number): Step[] {
  const arriving = new Map<string, Step>();
  for (const s of steps) if (!arriving.has(s.to) && dist.get(s.to) === dist.get(s.from)! + 1) arriving.set(s.to, s);
  let at = targets.find((k) => dist.get(k) === length)!;
  const path: Step[] = [];
  for (let i = 0; i < length; i++) {
    const step = arriving.get(at)!;
    path.push(step);
    at = step.from;
  }
  return path.reverse();
}

function subgraph(search: PathSearch, req: PathRequest, steps: Step[], alone: string[]): PathSubgraph {
  const refs = new Map<string, VertexRef>();
  for (const v of [...req.sources, ...req.targets]) refs.set(keyOf(v), v);
  const vertexKeys = new Set(alone);
  const edges = new Map<number, EdgeOut>();
  for (const s of steps) {
    vertexKeys.add(s.from);
    vertexKeys.add(s.to);
    refs.set(keyOf(s.storedFrom), s.storedFrom);
    refs.set(keyOf(s.storedTo), s.storedTo);
    if (edges.has(s.rowid)) continue;
    // Directed edges print as stored; undirected ones in the direction the path crosses them.
    const [from, to] =
      s.type.directed || keyOf(s.storedFrom) === s.from ? [s.storedFrom, s.storedTo] : [s.storedTo, s.storedFrom];
    edges.set(s.rowid, {
      e_type: s.type.name,
      directed: s.type.directed,
      from_id: from.id,
      from_type: from.type.name,
      to_id: to.id,
      to_type: to.type.name,
      attributes: JSON.parse(s.attrs) as Record<string, AttributeValue>,
    });
  }
  const vertices = [...vertexKeys].map((k) => {
    const v = refs.get(k)!;
    return {
      v_id: v.id,
      v_type: v.type.name,
      attributes: JSON.parse(search.attrsIfAllowed(v)!) as Record<string, AttributeValue>,
    };
  });
  return { vertices, edges: [...edges.values()] };
}
