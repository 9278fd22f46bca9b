import { parseDatetime } from '../attribute-values.js';
import type { StoredEdgeType, StoredVertexType } from '../catalog.js';
import type { GraphStore } from '../graph-store.js';
import { ScratchArrays } from './scratch.js';

/**
 * A vertex as a query value: one object per vertex of a view, so `===` is vertex identity and
 * sets and maps of vertices need no key of their own.
 */
export class Vertex {
  constructor(
    readonly gid: number,
    readonly view: GraphView,
  ) {}
  get id(): string {
    return this.view.ids[this.gid]!;
  }
  get type(): string {
    return this.view.vertexTypes[this.view.typeOf[this.gid]!]!.name;
  }
  toJSON(): string {
    return this.id;
  }
}

/** One adjacency list in CSR form: the neighbours of vertex v are `nbr[off[v] .. off[v+1])`, with their edges. */
export interface Adjacency {
  off: Int32Array;
  nbr: Int32Array;
  eid: Int32Array;
}

/**
 * The whole store read into arrays built for traversal: every vertex has a dense integer id (gid)
 * across all vertex types, attributes are columns indexed by gid (one per attribute name), and each
 * edge type has CSR adjacency out of its sources and, for reverse and undirected walks, into its
 * targets. Built once from SQLite in a few statements, and kept until the data changes.
 */
export class GraphView {
  readonly vertexTypes: StoredVertexType[] = [];
  readonly edgeTypes: StoredEdgeType[] = [];
  /** Vertex type index by type name. */
  readonly vtIndex = new Map<string, number>();
  readonly etIndex = new Map<string, number>();
  typeOf: Uint16Array = new Uint16Array(0);
  ids: string[] = [];
  /** gids of each vertex type, in id order. */
  readonly byType: Int32Array[] = [];
  /** Per vertex type: primary id → gid. */
  readonly lookup: Map<string, number>[] = [];
  /** Attribute columns by name: `attrs.get(name)[gid]`. */
  readonly attrs = new Map<string, unknown[]>();
  readonly edgeAttrs = new Map<string, unknown[]>();
  edgeType: Uint16Array = new Uint16Array(0);
  edgeFrom: Int32Array = new Int32Array(0);
  edgeTo: Int32Array = new Int32Array(0);
  /** Per edge type: the adjacency from FROM to TO, and from TO to FROM. */
  readonly out: Adjacency[] = [];
  readonly in: Adjacency[] = [];
  private readonly vertexObjects: (Vertex | undefined)[] = [];
  /** Out-degree arrays by edge name, made at their first use. */
  readonly degrees = new Map<string, Int32Array>();
  /** The vertex types found among each adjacency's neighbours, worked out at their first use. */
  private readonly neighbourTypeMarks = new WeakMap<Adjacency, Uint8Array>();

  /** DATETIME attributes, held as seconds: vertex attributes by name, edge attributes as `edge:<name>`. */
  private readonly datetimes = new Set<string>();

  private scratchArrays: ScratchArrays | undefined;

  get size(): number {
    return this.ids.length;
  }

  /** Per-vertex arrays the runs on this view take and give back. */
  get scratch(): ScratchArrays {
    return (this.scratchArrays ??= new ScratchArrays(this.size));
  }

  vertex(gid: number): Vertex {
    return (this.vertexObjects[gid] ??= new Vertex(gid, this));
  }

  /** Whether every neighbour in `adj` is of a type `mask` marks: then a walk need not check each. */
  neighboursWithin(adj: Adjacency, mask: Uint8Array): boolean {
    let marks = this.neighbourTypeMarks.get(adj);
    if (!marks) {
      marks = new Uint8Array(this.vertexTypes.length);
      const { nbr } = adj;
      const typeOf = this.typeOf;
      for (let k = 0; k < nbr.length; k++) marks[typeOf[nbr[k]!]!] = 1;
      this.neighbourTypeMarks.set(adj, marks);
    }
    for (let t = 0; t < marks.length; t++) if (marks[t] && !mask[t]) return false;
    return true;
  }

  /** The gid of a vertex by type name and primary id, or -1. */
  find(type: string, id: string): number {
    const t = this.vtIndex.get(type);
    if (t === undefined) return -1;
    return this.lookup[t]!.get(id) ?? -1;
  }

  /** Puts a vertex's stored attribute values into the columns; DATETIME values become seconds. */
  private setAttributes(gid: number, values: Record<string, unknown>, names: readonly string[]) {
    for (const name of names) {
      const v = values[name];
      if (v !== undefined) this.attrs.get(name)![gid] = this.datetimes.has(name) ? toEpoch(v) : v;
    }
  }

  /**
   * Reads the attribute values of `gids` again from the store, after a write that changed
   * nothing else; false when one of them is gone (the view must then be built again).
   */
  rereadAttributes(store: GraphStore, gids: readonly number[]): boolean {
    // A text of its own: pluck() changes the shared prepared statement for every caller of that text.
    const read = store.prepared('SELECT attrs FROM vertices WHERE type_id = ? AND id = ? /* view */').pluck();
    for (const gid of gids) {
      const type = this.vertexTypes[this.typeOf[gid]!]!;
      const json = read.get(type.id, this.ids[gid]) as string | undefined;
      if (json === undefined) return false;
      const names = type.attributes.map((a) => a.name);
      for (const name of names) this.attrs.get(name)![gid] = undefined;
      this.setAttributes(gid, JSON.parse(json) as Record<string, unknown>, names);
    }
    return true;
  }

  static build(store: GraphStore): GraphView {
    const view = new GraphView();
    const { catalog, db } = store;
    const vtById = new Map<number, number>();
    for (const vt of catalog.vertexTypes.values()) {
      vtById.set(vt.id, view.vertexTypes.length);
      view.vtIndex.set(vt.name, view.vertexTypes.length);
      view.vertexTypes.push(vt);
      view.lookup.push(new Map());
    }
    const typeOf: number[] = [];
    const perType: number[][] = view.vertexTypes.map(() => []);
    for (const vt of view.vertexTypes) {
      for (const a of vt.attributes) {
        if (!view.attrs.has(a.name)) view.attrs.set(a.name, []);
        if (a.type === 'DATETIME') view.datetimes.add(a.name);
      }
    }
    const attrNames = [...view.attrs.keys()];
    const rows = db.prepare('SELECT type_id, id, attrs FROM vertices ORDER BY type_id, rowid').raw();
    for (const [typeId, id, json] of rows.iterate() as Iterable<[number, string, string]>) {
      const t = vtById.get(typeId);
      if (t === undefined) continue;
      const gid = view.ids.length;
      view.ids.push(id);
      typeOf.push(t);
      perType[t]!.push(gid);
      view.lookup[t]!.set(id, gid);
      // A vertex without attribute values (common for a type without attributes) is not parsed.
      if (attrNames.length === 0 || json === '{}') continue;
      view.setAttributes(gid, JSON.parse(json) as Record<string, unknown>, attrNames);
    }
    view.typeOf = Uint16Array.from(typeOf);
    for (const list of perType) view.byType.push(Int32Array.from(list));

    const etById = new Map<number, number>();
    for (const et of catalog.edgeTypes.values()) {
      etById.set(et.id, view.edgeTypes.length);
      view.etIndex.set(et.name, view.edgeTypes.length);
      view.edgeTypes.push(et);
      for (const a of et.attributes) {
        if (!view.edgeAttrs.has(a.name)) view.edgeAttrs.set(a.name, []);
        if (a.type === 'DATETIME') view.datetimes.add(`edge:${a.name}`);
      }
    }
    const withAttrs = new Set(view.edgeTypes.filter((e) => e.attributes.length > 0).map((e) => e.id));
    const eType: number[] = [];
    const eFrom: number[] = [];
    const eTo: number[] = [];
    // Edges without attributes are read grouped by source (one row per source vertex, its targets joined
    // by a separator, in the order of the source index): SQLite hands over a tenth of the rows.
    const grouped = db
      .prepare(
        'SELECT type_id, from_type, from_id, to_type, count(*), group_concat(to_id, char(31)) FROM edges ' +
          'GROUP BY from_type, from_id, type_id, to_type',
      )
      .raw();
    const perRow: [number, number, string, number, string][] = [];
    for (const [typeId, ft, fid, tt, count, joined] of grouped.iterate() as Iterable<
      [number, number, string, number, number, string]
    >) {
      const et = etById.get(typeId);
      const f = view.lookup[vtById.get(ft) ?? -1]?.get(fid);
      const targets = view.lookup[vtById.get(tt) ?? -1];
      if (et === undefined || f === undefined || !targets || withAttrs.has(typeId)) continue;
      const ids = joined.split('\u001f');
      if (ids.length !== count) {
        // An id holds the separator: these edges are read one by one below.
        perRow.push([typeId, ft, fid, tt, '']);
        continue;
      }
      for (const id of ids) {
        const to = targets.get(id);
        if (to === undefined) continue;
        eType.push(et);
        eFrom.push(f);
        eTo.push(to);
      }
    }
    const rowsOf = db.prepare(
      'SELECT type_id, from_type, from_id, to_type, to_id, attrs FROM edges WHERE type_id = ? ' +
        'OR (from_type = ? AND from_id = ? AND type_id = ? AND to_type = ?)',
    );
    const readRows = (args: unknown[]) => {
      for (const [typeId, ft, fid, tt, tid, json] of rowsOf.raw().iterate(...args) as Iterable<
        [number, number, string, number, string, string]
      >) {
        const et = etById.get(typeId);
        const f = view.lookup[vtById.get(ft) ?? -1]?.get(fid);
        const to = view.lookup[vtById.get(tt) ?? -1]?.get(tid);
        if (et === undefined || f === undefined || to === undefined) continue;
        const eid = eType.length;
        eType.push(et);
        eFrom.push(f);
        eTo.push(to);
        if (withAttrs.has(typeId)) {
          const values = JSON.parse(json) as Record<string, unknown>;
          for (const [k, v] of Object.entries(values)) {
            const col = view.edgeAttrs.get(k);
            if (col) col[eid] = view.datetimes.has(`edge:${k}`) ? toEpoch(v) : v;
          }
        }
      }
    };
    for (const typeId of withAttrs) readRows([typeId, -1, '', -1, -1]);
    for (const [typeId, ft, fid, tt] of perRow) readRows([-1, ft, fid, typeId, tt]);
    view.edgeType = Uint16Array.from(eType);
    view.edgeFrom = Int32Array.from(eFrom);
    view.edgeTo = Int32Array.from(eTo);
    const n = view.size;
    for (let et = 0; et < view.edgeTypes.length; et++) {
      view.out.push(csr(n, view.edgeType, et, view.edgeFrom, view.edgeTo));
      view.in.push(csr(n, view.edgeType, et, view.edgeTo, view.edgeFrom));
    }
    return view;
  }
}

/** DATETIME values are held as seconds since the epoch, so that they compare and subtract as numbers. */
export function toEpoch(v: unknown): number {
  const checked = parseDatetime(v);
  return checked.ok ? Date.parse(`${String(checked.value).replace(' ', 'T')}Z`) / 1000 : 0;
}

/** Counting sort of one edge type's edges by `key`: two passes over the edges, no comparison sort. */
function csr(n: number, types: Uint16Array, et: number, key: Int32Array, other: Int32Array): Adjacency {
  const off = new Int32Array(n + 1);
  let m = 0;
  for (let i = 0; i < types.length; i++)
    if (types[i] === et) {
      off[key[i]! + 1]!++;
      m++;
    }
  for (let v = 0; v < n; v++) off[v + 1]! += off[v]!;
  const fill = off.slice(0, n);
  const nbr = new Int32Array(m);
  const eid = new Int32Array(m);
  for (let i = 0; i < types.length; i++)
    if (types[i] === et) {
      const k = fill[key[i]!]!++;
      nbr[k] = other[i]!;
      eid[k] = i;
    }
  return { off, nbr, eid };
}

const views = new WeakMap<GraphStore, { key: string; view: GraphView }>();

/**
 * The view of a store's data as it is now: rebuilt when a write (of this process or, through
 * SQLite's data_version, of another connection) or a schema change happened since it was built.
 */
export function graphView(store: GraphStore): GraphView {
  const key = viewKey(store);
  const held = views.get(store);
  if (held && held.key === key) return held.view;
  const view = GraphView.build(store);
  views.set(store, { key, view });
  return view;
}

/**
 * Vertices read again one by one rather than the view built anew: up to this share of the
 * view's, past which that costs about what a build does, or this many, which cost a few ms.
 */
const REREAD_SHARE = 1 / 8;
const REREAD_ANYWAY = 1024;

/**
 * Runs `write`, which changes at most the attribute values of `vertices`, and keeps the view
 * of the store when it was current and holds every one of them, with their rows read again:
 * an application that updates a few vertices between queries pays for those rows, not for
 * reading the whole graph again. Otherwise the next query builds a new view, as after any write.
 */
export function writingAttributes<T>(
  store: GraphStore,
  vertices: readonly { type: StoredVertexType; id: string }[],
  write: () => T,
): T {
  const held = views.get(store);
  const view = held?.key === viewKey(store) ? held.view : undefined;
  const gids =
    view && vertices.length <= Math.max(REREAD_ANYWAY, view.size * REREAD_SHARE)
      ? vertices.map((v) => view.find(v.type.name, v.id))
      : undefined;
  const result = write();
  if (view && gids?.every((g) => g >= 0) && view.rereadAttributes(store, gids)) keepView(store, view);
  return result;
}

/** After a query wrote through its view (and to SQLite), the view is still the data's: keep it. */
export function keepView(store: GraphStore, view: GraphView): void {
  views.set(store, { key: viewKey(store), view });
}

export function dropView(store: GraphStore): void {
  views.delete(store);
}

function viewKey(store: GraphStore): string {
  return `${store.writes}:${store.externalVersion}:${store.catalog.version}`;
}
