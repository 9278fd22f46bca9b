import { formatDatetime } from '../attribute-values.js';
import type { TypeRef } from './ast.js';
import { type GraphView, Vertex } from './graph-view.js';

/** A query's runtime failure: a type or value error, or RAISE; the query stops and nothing it wrote stays. */
export class QueryRuntimeError extends Error {
  constructor(
    message: string,
    /** The exception's name and code, for `RAISE` / `EXCEPTION`. */
    readonly exception?: { name: string; code: number },
  ) {
    super(message);
  }
}

/** A tuple value (TYPEDEF TUPLE): fields in declared order. */
export class Tuple {
  constructor(
    readonly typeName: string,
    readonly fields: Record<string, unknown>,
  ) {}
}

/**
 * An edge as a query value: its index in the view. An undirected edge is the edge as it was walked:
 * from the vertex the walk came from (`walkedFrom`), so A–B walked from B is B→A, another value.
 */
export class EdgeRef {
  /** True when an undirected edge was walked from its stored TO end. */
  readonly flipped: boolean;
  constructor(
    readonly eid: number,
    readonly view: GraphView,
    walkedFrom = -1,
  ) {
    const from = view.edgeFrom[eid]!;
    const directed = view.edgeTypes[view.edgeType[eid]!]!.directed;
    this.flipped = !directed && walkedFrom !== from && walkedFrom === view.edgeTo[eid];
  }

  /** The edge as TigerGraph prints it: type, direction, both ends, and every attribute of its type. */
  json(): Record<string, unknown> {
    const { view, eid } = this;
    const type = view.edgeTypes[view.edgeType[eid]!]!;
    const ends = [view.edgeFrom[eid]!, view.edgeTo[eid]!];
    if (this.flipped) ends.reverse();
    const from = view.vertex(ends[0]!);
    const to = view.vertex(ends[1]!);
    const attributes: Record<string, unknown> = {};
    for (const a of type.attributes) {
      const v = view.edgeAttrs.get(a.name)?.[eid];
      const t: TypeRef = { k: 'base', name: a.type };
      attributes[a.name] = v === undefined || v === null ? jsonOf(defaultOf(t), t) : jsonOf(v, t);
    }
    return {
      e_type: type.name,
      directed: type.directed,
      from_id: from.id,
      from_type: from.type,
      to_id: to.id,
      to_type: to.type,
      attributes,
    };
  }
}

/** The key a value has in a set or map: tuples compare by content, everything else by identity or value. */
export function keyOf(v: unknown): unknown {
  if (v instanceof Tuple) return `\u0000${JSON.stringify(jsonOf(v))}`;
  if (v instanceof EdgeRef) return `\u0001${v.eid}${v.flipped ? '~' : ''}`;
  return v;
}

/**
 * Whether a value's key (keyOf) may differ from the value itself: tuples and edges, and text
 * that could equal a tuple's or an edge's key. Sets of other values can be asked `has` directly.
 */
export function keyedApart(v: unknown): boolean {
  // Vertices first: the most common members of a set, answered by one step of their prototype chain.
  if (v instanceof Vertex) return false;
  if (typeof v === 'string') return v.length > 0 && (v.charCodeAt(0) === 0 || v.charCodeAt(0) === 1);
  return v instanceof Tuple || v instanceof EdgeRef;
}

/** Equality as GSQL's `==`: by value, tuples by content. */
export function eq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Tuple && b instanceof Tuple) return keyOf(a) === keyOf(b);
  if (a instanceof EdgeRef && b instanceof EdgeRef) return a.eid === b.eid && a.flipped === b.flipped;
  return false;
}

/** Ordering for ORDER BY and heaps: numbers, strings and booleans; vertices by id. */
export function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a instanceof Vertex && b instanceof Vertex) return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const isDatetime = (t: TypeRef | undefined): boolean => t?.k === 'base' && t.name === 'DATETIME';

/** Anything that can print itself as TigerGraph prints it (accumulators). */
export interface Printable {
  json(): unknown;
}

/** A value as TigerGraph's JSON output shows it; `type` formats DATETIME numbers as text. */
export function jsonOf(v: unknown, type?: TypeRef): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'number':
      if (isDatetime(type)) return formatDatetime(v);
      return Number.isFinite(v) ? v : v > 0 ? 'inf' : v < 0 ? '-inf' : 'nan';
    case 'string':
    case 'boolean':
      return v;
    case 'bigint':
      return Number(v);
    default:
      break;
  }
  if (v instanceof Vertex) return v.id;
  const elem = type && (type.k === 'coll' ? type.elem : undefined);
  if (Array.isArray(v)) return v.map((x) => jsonOf(x, elem));
  if (v instanceof Set) return [...v].map((x) => jsonOf(x, elem));
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    const vt = type?.k === 'map' ? type.value : undefined;
    for (const [k, x] of v) out[String(jsonOf(k))] = jsonOf(x, vt);
    return out;
  }
  if (v instanceof Tuple) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v.fields)) out[k] = jsonOf(x);
    return out;
  }
  if (typeof (v as Printable).json === 'function') return (v as Printable).json();
  return v;
}

/** GSQL's text of a value, for string concatenation and to_string. */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Vertex) return v.id;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(jsonOf(v));
}

/** The value a declared but unassigned variable of a type starts with. */
export function defaultOf(t: TypeRef): unknown {
  switch (t.k) {
    case 'base':
      switch (t.name) {
        case 'INT':
        case 'UINT':
        case 'FLOAT':
        case 'DOUBLE':
        case 'DATETIME':
          return 0;
        case 'STRING':
          return '';
        case 'BOOL':
          return false;
        default:
          return null;
      }
    case 'coll':
      return t.name === 'SET' ? new Set() : [];
    case 'map':
      return new Map();
    default:
      return null;
  }
}
