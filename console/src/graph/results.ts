import type { DrawnEdge, DrawnNode } from './drawing.js';

/**
 * A query's results as TigerGraph prints them (`results`: a list of objects, one per PRINT), turned into tables
 * and into the vertices and edges they hold: vertices are `{v_id, v_type, attributes}`, edges
 * `{e_type, from_id, from_type, to_id, to_type, attributes}`.
 */

export interface ResultVertex {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
}

export interface ResultEdge {
  type: string;
  from: { id: string; type: string };
  to: { id: string; type: string };
  directed: boolean;
}

export interface ResultTable {
  /** The printed name (`S`, `@@total`) and which PRINT it came from. */
  title: string;
  columns: string[];
  rows: string[][];
  /** Rows left out to keep the page small. */
  omitted: number;
}

/** The most rows a table shows. */
export const TABLE_ROWS = 200;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isVertex = (v: unknown): v is Json => isObject(v) && 'v_id' in v && typeof v.v_type === 'string';
const isEdge = (v: unknown): v is Json => isObject(v) && typeof v.e_type === 'string' && 'from_id' in v && 'to_id' in v;

/** A cell's text: strings as they are, everything else as JSON. */
export function cellText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return JSON.stringify(v);
}

function rowsTable(title: string, items: unknown[]): ResultTable {
  const shown = items.slice(0, TABLE_ROWS);
  const attributes = (item: unknown) => (isObject(item) && isObject(item.attributes) ? item.attributes : {});
  let fixed: string[];
  if (shown.every(isVertex)) fixed = ['v_id', 'v_type'];
  else if (shown.every(isEdge)) fixed = ['e_type', 'from_type', 'from_id', 'to_type', 'to_id'];
  else fixed = [];
  const columns = [...fixed];
  const seen = new Set(columns);
  const add = (name: string) => {
    if (!seen.has(name)) {
      seen.add(name);
      columns.push(name);
    }
  };
  for (const item of shown) {
    if (fixed.length) Object.keys(attributes(item)).forEach(add);
    else if (isObject(item)) Object.keys(item).forEach(add);
    else add('value');
  }
  const rows = shown.map((item) => {
    if (!isObject(item)) return columns.map(() => cellText(item));
    const attrs = attributes(item);
    return columns.map((c) => cellText(fixed.includes(c) ? item[c] : fixed.length ? attrs[c] : item[c]));
  });
  return { title, columns, rows, omitted: items.length - shown.length };
}

/** One table per printed value: lists row by row, objects and scalars as one row. */
export function resultTables(results: unknown): ResultTable[] {
  if (!Array.isArray(results)) return [];
  const tables: ResultTable[] = [];
  results.forEach((printed, i) => {
    const label = results.length > 1 ? ` (PRINT ${i + 1})` : '';
    if (!isObject(printed)) return tables.push(rowsTable(`value${label}`, [printed]));
    for (const [name, value] of Object.entries(printed))
      tables.push(rowsTable(`${name}${label}`, Array.isArray(value) ? value : [value]));
  });
  return tables;
}

/** Every vertex and edge printed, each vertex once (by type and id), in the order printed. */
export function resultGraph(results: unknown): { vertices: ResultVertex[]; edges: ResultEdge[] } {
  const vertices = new Map<string, ResultVertex>();
  const edges: ResultEdge[] = [];
  const visit = (value: unknown) => {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (isVertex(item)) {
        const v = {
          id: String(item.v_id),
          type: String(item.v_type),
          attributes: isObject(item.attributes) ? item.attributes : {},
        };
        const key = `${v.type}\u0000${v.id}`;
        if (!vertices.has(key)) vertices.set(key, v);
      } else if (isEdge(item)) {
        edges.push({
          type: String(item.e_type),
          from: { id: String(item.from_id), type: String(item.from_type ?? '') },
          to: { id: String(item.to_id), type: String(item.to_type ?? '') },
          directed: item.directed !== false,
        });
      }
    }
  };
  if (Array.isArray(results))
    for (const printed of results) if (isObject(printed)) Object.values(printed).forEach(visit);
  return { vertices: [...vertices.values()], edges };
}

/**
 * The result's vertices and edges as drawn: at most `max` vertices (an edge's ends count, printed or not), the
 * edges between drawn vertices, and the totals, so the page can say how much was left out.
 */
export function drawnResult(results: unknown, max: number) {
  const { vertices, edges } = resultGraph(results);
  const key = (type: string, id: string) => `${type}\u0000${id}`;
  const index = new Map<string, number>();
  const nodes: DrawnNode[] = [];
  const types = new Map<string, number>();
  const add = (type: string, id: string) => {
    const k = key(type, id);
    if (index.has(k) || nodes.length >= max) return;
    if (!types.has(type)) types.set(type, types.size);
    index.set(k, nodes.length);
    nodes.push({ label: id, detail: type, colour: types.get(type)! });
  };
  for (const v of vertices) add(v.type, v.id);
  // An edge's endpoints are drawn even when the query printed only the edge.
  for (const e of edges) {
    add(e.from.type, e.from.id);
    add(e.to.type, e.to.id);
  }
  const drawn: DrawnEdge[] = [];
  for (const e of edges) {
    const from = index.get(key(e.from.type, e.from.id));
    const to = index.get(key(e.to.type, e.to.id));
    if (from !== undefined && to !== undefined) drawn.push({ from, to, label: e.type, directed: e.directed });
  }
  const total = new Set([
    ...vertices.map((v) => key(v.type, v.id)),
    ...edges.flatMap((e) => [key(e.from.type, e.from.id), key(e.to.type, e.to.id)]),
  ]).size;
  return { nodes, edges: drawn, total, edgeTotal: edges.length };
}
