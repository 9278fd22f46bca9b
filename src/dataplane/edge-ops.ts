import { endsOf, endsHas, type EdgeView, type StoredVertexType } from './catalog.js';
import { fail } from './errors.js';
import type { GraphStore } from './graph-store.js';
import type { TouchedRows } from './touched-rows.js';
import {
  attributeMap,
  compareBy,
  matches,
  parseFilter,
  parseLimit,
  parseSelect,
  parseSort,
  type Condition,
  type SortKey,
} from './query-params.js';
import type { AttributeValue, GraphDef } from './schema-types.js';

/** Which edges of a vertex a URL names: `/edges/{type}/{id}[/{edge}[/{target type}[/{target id}]]]`. */
export interface EdgeSelection {
  source: { type: StoredVertexType; id: string };
  /** The edge names considered (one, or every name that can leave the source type). */
  views: EdgeView[];
  target?: { type: StoredVertexType; id?: string };
}

export interface EdgeQuery {
  conditions: Condition[];
  sort: SortKey[];
  select?: string[];
  limit?: number;
}

/** An edge as REST++ prints it, read from the source vertex's side. */
export interface EdgeOut {
  e_type: string;
  directed: boolean;
  from_id: string;
  from_type: string;
  to_id: string;
  to_type: string;
  attributes: Record<string, AttributeValue>;
}

/** An edge as its table row has it. */
export interface EdgeRow {
  rowid: number;
  type_id: number;
  from_type: number;
  from_id: string;
  to_type: number;
  to_id: string;
  attrs: string;
}

/**
 * The edge names that can leave a vertex of `source`: FROM side of directed, TO side of reverse, either of
 * undirected.
 */
export function viewsFrom(store: GraphStore, graph: GraphDef, source: StoredVertexType): EdgeView[] {
  return store.catalog.edgeViewsOf(graph).filter((view) => leaves(view, source));
}

/** Whether an edge name can leave a vertex of `source`. */
export function leaves({ type, reversed }: EdgeView, source: StoredVertexType): boolean {
  const { from, to } = endsOf(type);
  if (!type.directed) return endsHas(from, source.name) || endsHas(to, source.name);
  return reversed ? endsHas(to, source.name) : endsHas(from, source.name);
}

export function readEdgeQuery(views: EdgeView[], q: Record<string, string | undefined>): EdgeQuery {
  const attrs = attributeMap(...views.map((v) => v.type.attributes));
  return {
    conditions: parseFilter(q.filter, attrs),
    sort: parseSort(q.sort, attrs),
    select: parseSelect(q.select, attrs),
    limit: parseLimit(q.limit),
  };
}

/**
 * The edges a selection names, grouped by edge name (in the order of `views`). Edges leaving
 * the vertex are read by `edges_by_source`, those arriving (reverse and undirected) by
 * `edges_by_target`; both from the same rows.
 */
export function selectEdges(store: GraphStore, sel: EdgeSelection): Map<EdgeView, { row: EdgeRow; out: EdgeOut }[]> {
  const { source, target } = sel;
  // The rows by edge type, so each edge name visits its own rows only, not every row of the vertex.
  const byType = (sql: string) => {
    const rows = new Map<number, EdgeRow[]>();
    for (const row of store.db.prepare(sql).iterate(source.type.id, source.id) as Iterable<EdgeRow>) {
      const list = rows.get(row.type_id);
      if (list) list.push(row);
      else rows.set(row.type_id, [row]);
    }
    return rows;
  };
  const outRows = byType('SELECT rowid, * FROM edges WHERE from_type = ? AND from_id = ?');
  const inRows = byType('SELECT rowid, * FROM edges WHERE to_type = ? AND to_id = ?');
  const groups = new Map<EdgeView, { row: EdgeRow; out: EdgeOut }[]>();
  for (const view of sel.views) groups.set(view, []);
  const vertexName = (id: number) => store.catalog.vertexTypesById.get(id)!.name;
  const add = (view: EdgeView, row: EdgeRow, far: { type: number; id: string }) => {
    if (target && (far.type !== target.type.id || (target.id !== undefined && far.id !== target.id))) return;
    groups.get(view)!.push({
      row,
      out: {
        e_type: view.name,
        directed: view.type.directed,
        from_id: source.id,
        from_type: source.type.name,
        to_id: far.id,
        to_type: vertexName(far.type),
        attributes: JSON.parse(row.attrs) as Record<string, AttributeValue>,
      },
    });
  };
  for (const view of sel.views) {
    const { type, reversed } = view;
    if (!reversed) for (const row of outRows.get(type.id) ?? []) add(view, row, { type: row.to_type, id: row.to_id });
    if (reversed || !type.directed)
      for (const row of inRows.get(type.id) ?? []) {
        const selfLoop = row.from_type === row.to_type && row.from_id === row.to_id;
        if (!(selfLoop && !type.directed)) add(view, row, { type: row.from_type, id: row.from_id });
      }
  }
  return groups;
}

/** Filter, sort and limit applied across the selected edges, as REST++ lists them. */
export function queryEdges(store: GraphStore, sel: EdgeSelection, q: EdgeQuery): { row: EdgeRow; out: EdgeOut }[] {
  let list = [...selectEdges(store, sel).values()].flat().filter((e) => matches(q.conditions, e.out.attributes));
  if (q.sort.length > 0) {
    const cmp = compareBy(q.sort);
    list = list.sort((a, b) => cmp(a.out.attributes, b.out.attributes));
  }
  if (q.limit !== undefined) list = list.slice(0, q.limit);
  if (q.select) {
    const select = q.select;
    for (const e of list)
      e.out.attributes = Object.fromEntries(
        select.filter((n) => n in e.out.attributes).map((n) => [n, e.out.attributes[n]!]),
      );
  }
  return list;
}

/** Per edge name: how many selected edges there are (`count_only`). */
export function countEdges(store: GraphStore, sel: EdgeSelection, q: EdgeQuery): { e_type: string; count: number }[] {
  const groups = selectEdges(store, sel);
  return sel.views.map((view) => ({
    e_type: view.name,
    count: groups.get(view)!.filter((e) => matches(q.conditions, e.out.attributes)).length,
  }));
}

/**
 * Deletes the selected edges; a reverse edge goes with its forward edge, being the same row.
 * Each edge deleted is listed in `touched`, when given.
 */
export function deleteEdges(
  store: GraphStore,
  sel: EdgeSelection,
  q: EdgeQuery,
  touched?: TouchedRows,
): { e_type: string; deleted_edges: number }[] {
  return store.write(() => {
    const chosen = new Set(queryEdges(store, sel, { ...q, select: undefined }).map((e) => e.row.rowid));
    const groups = selectEdges(store, sel);
    const del = store.db.prepare('DELETE FROM edges WHERE rowid = ?');
    const done = new Set<number>();
    return sel.views.map((view) => {
      let deleted = 0;
      for (const { row } of groups.get(view)!) {
        if (!chosen.has(row.rowid) || done.has(row.rowid)) continue;
        done.add(row.rowid);
        deleted += del.run(row.rowid).changes;
        touched?.edge({
          view,
          from: { type: store.catalog.vertexTypesById.get(row.from_type)!, id: row.from_id },
          to: { type: store.catalog.vertexTypesById.get(row.to_type)!, id: row.to_id },
        });
      }
      return { e_type: view.name, deleted_edges: deleted };
    });
  });
}

/** Edge counts per edge name for `stat_edge_number`; reverse names count their forward rows. */
export function statEdgeNumber(
  store: GraphStore,
  views: EdgeView[],
  fromType?: StoredVertexType,
  toType?: StoredVertexType,
): { e_type: string; count: number }[] {
  const ends = '(? IS NULL OR from_type = ?) AND (? IS NULL OR to_type = ?)';
  const directed = store.db.prepare(`SELECT count(*) FROM edges WHERE type_id = ? AND ${ends}`).pluck();
  // An undirected edge is one row whichever way it was written: it counts when either order fits.
  const undirected = store.db
    .prepare(`SELECT count(*) FROM edges WHERE type_id = ? AND ((${ends}) OR (${ends}))`)
    .pluck();
  return views.map((view) => {
    const { type, reversed } = view;
    let from = fromType?.id ?? null;
    let to = toType?.id ?? null;
    if (reversed) [from, to] = [to, from];
    const count = type.directed
      ? directed.get(type.id, from, from, to, to)
      : undirected.get(type.id, from, from, to, to, to, to, from, from);
    return { e_type: view.name, count: Number(count) };
  });
}

/** The target vertex type named in a URL, which must be an end of the edge type. */
export function targetTypeOf(store: GraphStore, graph: GraphDef, name: string): StoredVertexType {
  return (
    store.catalog.vertexTypeIn(graph, name) ??
    fail(
      'invalidPayload',
      `The input parameter target_vertex_type = '${name}' is not a valid vertex type in graph '${graph.name}'.`,
    )
  );
}
