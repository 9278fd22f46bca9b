import { parseDatetime } from '../attribute-values.js';
import type { StoredEdgeType, StoredVertexType } from '../catalog.js';
import { TouchedRows, type WrittenRows, type WrittenVertex } from '../touched-rows.js';
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
    const objects = this.vertexObjects;
    // Filled to the view's size first: an array written at scattered indexes from empty becomes
    // a dictionary, whose reads cost many times an array's.
    if (objects.length < this.size) for (let g = objects.length; g < this.size; g++) objects.push(undefined);
    return (objects[gid] ??= new Vertex(gid, this));
  }

  /**
   * Vertices and edges `absorb` dropped since the build, whose gids and edge ids stay unused:
   * what the arrays hold beyond the vertices the types list and the edges the adjacencies list.
   */
  private dropped(): { vertices: number; edges: number } {
    let vertices = this.size;
    for (const gids of this.byType) vertices -= gids.length;
    let edges = this.edgeType.length;
    for (const adj of this.out) edges -= adj.nbr.length;
    return { vertices, edges };
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
   * Takes in the rows writes touched (see writingRows), read back from the store: the values of
   * vertices and edges it holds, new vertices and edges appended with the next gids and edge
   * ids, and what is no longer there dropped (a deleted vertex with every edge it had). Each row
   * is read as the store has it now, so rows named by several writes come out as the last left
   * them. The adjacency of each edge type that gained or lost an edge is sorted again in memory,
   * which costs a small share of reading the store again. False when the view cannot follow (a
   * type it does not know) or has dropped too much to stay compact: only a new build can follow.
   */
  absorb(store: GraphStore, written: readonly WrittenRows[]): boolean {
    // Texts of their own: pluck() changes the shared prepared statement for every caller of a text.
    const readVertex = store.prepared('SELECT attrs FROM vertices WHERE type_id = ? AND id = ? /* view */').pluck();
    const readEdge = store
      .prepared(
        'SELECT attrs FROM edges WHERE from_type = ? AND from_id = ? AND type_id = ? AND to_type = ? AND to_id = ? ' +
          '/* view */',
      )
      .pluck();
    const sizeBefore = this.size;
    const edgesBefore = this.edgeType.length;
    const droppedBefore = this.dropped();
    const addedTypes: number[] = [];
    const added = { type: [] as number[], from: [] as number[], to: [] as number[] };
    /** Edges added here, by each end: a vertex deleted by a later write takes them with it. */
    const addedAt = new Map<number, number[]>();
    /** Edge ids dropped here, whether the view had them before or they were added here. */
    const gone = new Set<number>();
    const deadVertices: number[] = [];
    /**
     * The edges of a type out of a vertex, by target: read from its adjacency once, however many
     * edges of the writes leave it (a hub's are many), with those added and dropped since.
     */
    const bySource = new Map<string, Map<number, number>>();
    const edgesFrom = (et: number, f: number): Map<number, number> => {
      const key = `${et}:${f}`;
      let targets = bySource.get(key);
      if (!targets) {
        bySource.set(key, (targets = new Map()));
        if (f < sizeBefore) {
          const { off, nbr, eid } = this.out[et]!;
          for (let k = off[f]!; k < off[f + 1]!; k++) if (!gone.has(eid[k]!)) targets.set(nbr[k]!, eid[k]!);
        }
      }
      return targets;
    };
    const sorted = new Set<number>();
    const dropEdge = (et: number, from: number, to: number, eid: number) => {
      gone.add(eid);
      edgesFrom(et, from).delete(to);
      sorted.add(et);
    };
    /** Drops every edge the view has at `gid`, as the store's delete of a vertex does. */
    const dropEdgesAt = (gid: number) => {
      if (gid < sizeBefore)
        for (let et = 0; et < this.edgeTypes.length; et++) {
          const out = this.out[et]!;
          for (let k = out.off[gid]!; k < out.off[gid + 1]!; k++)
            if (!gone.has(out.eid[k]!)) dropEdge(et, gid, out.nbr[k]!, out.eid[k]!);
          const into = this.in[et]!;
          for (let k = into.off[gid]!; k < into.off[gid + 1]!; k++)
            if (!gone.has(into.eid[k]!)) dropEdge(et, into.nbr[k]!, gid, into.eid[k]!);
        }
      for (const eid of addedAt.get(gid) ?? []) {
        const j = eid - edgesBefore;
        if (!gone.has(eid)) dropEdge(added.type[j]!, added.from[j]!, added.to[j]!, eid);
      }
    };
    const STALE = -2;
    const taken = new Map<string, number>();
    /** A vertex's gid with its values read again; -1: the store has no such row; STALE: the view cannot follow. */
    const take = (v: WrittenVertex): number => {
      const t = this.vtIndex.get(v.type.name);
      if (t === undefined) return STALE;
      const key = `${t}\u0000${v.id}`;
      const known = taken.get(key);
      if (known !== undefined) return known;
      const json = readVertex.get(v.type.id, v.id) as string | undefined;
      let gid = this.lookup[t]!.get(v.id);
      taken.set(key, -1);
      if (json === undefined) {
        if (gid === undefined) return -1;
        // Deleted: its gid is no longer any vertex's, and its edges went with it.
        this.lookup[t]!.delete(v.id);
        deadVertices.push(gid);
        dropEdgesAt(gid);
        return -1;
      }
      if (gid === undefined) {
        gid = this.ids.length;
        this.ids.push(v.id);
        addedTypes.push(t);
        this.lookup[t]!.set(v.id, gid);
      }
      const names = this.vertexTypes[t]!.attributes.map((a) => a.name);
      for (const name of names) this.attrs.get(name)![gid] = undefined;
      this.setAttributes(gid, JSON.parse(json) as Record<string, unknown>, names);
      taken.set(key, gid);
      return gid;
    };
    for (const rows of written) {
      for (const v of rows.vertices) {
        const gid = take(v);
        if (gid === STALE) return false;
        // Deleted, then made again by a later write: the edges it had are gone all the same.
        if (v.deleted && gid >= 0) dropEdgesAt(gid);
      }
      for (const e of rows.edges) {
        const type = e.view.type;
        const et = this.etIndex.get(type.name);
        const f = take(e.from);
        const to = take(e.to);
        if (et === undefined || f === STALE || to === STALE) return false;
        const json = readEdge.get(e.from.type.id, e.from.id, type.id, e.to.type.id, e.to.id) as string | undefined;
        if (json === undefined) {
          // Deleted, or never written (an end was missing and the upsert asked for existing vertices only).
          const eid = f >= 0 && to >= 0 ? edgesFrom(et, f).get(to) : undefined;
          if (eid !== undefined) dropEdge(et, f, to, eid);
          continue;
        }
        if (f < 0 || to < 0) return false;
        const targets = edgesFrom(et, f);
        let eid = targets.get(to);
        if (eid === undefined) {
          eid = edgesBefore + added.type.length;
          added.type.push(et);
          added.from.push(f);
          added.to.push(to);
          for (const end of f === to ? [f] : [f, to]) {
            const at = addedAt.get(end);
            if (at) at.push(eid);
            else addedAt.set(end, [eid]);
          }
          targets.set(to, eid);
          sorted.add(et);
        }
        // A stored edge row holds every attribute of its type (defaults included).
        if (type.attributes.length === 0) continue;
        for (const [k, v] of Object.entries(JSON.parse(json) as Record<string, unknown>)) {
          const col = this.edgeAttrs.get(k);
          if (col) col[eid] = this.datetimes.has(`edge:${k}`) ? toEpoch(v) : v;
        }
      }
    }
    // Dropped vertices and edges keep their place in the arrays until the next build.
    const most = (n: number) => Math.max(DEAD_ANYWAY, n * DEAD_SHARE);
    if (
      droppedBefore.vertices + deadVertices.length > most(this.size) ||
      droppedBefore.edges + gone.size > most(edgesBefore + added.type.length)
    )
      return false;
    for (const eid of gone) if (eid >= edgesBefore) added.type[eid - edgesBefore] = DROPPED;
    this.rearrange(sizeBefore, addedTypes, added, sorted, gone, deadVertices);
    return true;
  }

  /**
   * The arrays after `absorb` appended and dropped vertices and edges: typed arrays are made
   * again, one size up; a dropped edge's type becomes DROPPED, a dropped vertex leaves its type's list.
   */
  private rearrange(
    sizeBefore: number,
    addedTypes: number[],
    added: { type: number[]; from: number[]; to: number[] },
    sorted: Set<number>,
    gone: Set<number>,
    deadVertices: number[],
  ): void {
    const n = this.size;
    if (addedTypes.length === 0 && added.type.length === 0 && gone.size === 0 && deadVertices.length === 0) return;
    if (deadVertices.length > 0) {
      const dead = new Set(deadVertices);
      for (const t of new Set(deadVertices.map((gid) => this.typeOf[gid]!)))
        this.byType[t] = this.byType[t]!.filter((gid) => !dead.has(gid));
      for (const gid of deadVertices) for (const col of this.attrs.values()) col[gid] = undefined;
    }
    if (addedTypes.length > 0) {
      const typeOf = new Uint16Array(n);
      typeOf.set(this.typeOf);
      typeOf.set(addedTypes, sizeBefore);
      this.typeOf = typeOf;
      // Each type's list made again once, however many of its vertices came.
      const gidsOf = new Map<number, number[]>();
      addedTypes.forEach((t, i) => {
        let gids = gidsOf.get(t);
        if (!gids) gidsOf.set(t, (gids = []));
        gids.push(sizeBefore + i);
      });
      for (const [t, gids] of gidsOf) this.byType[t] = appended(this.byType[t]!, gids, Int32Array);
    }
    if (added.type.length > 0) {
      this.edgeType = appended(this.edgeType, added.type, Uint16Array);
      this.edgeFrom = appended(this.edgeFrom, added.from, Int32Array);
      this.edgeTo = appended(this.edgeTo, added.to, Int32Array);
    }
    for (const eid of gone) this.edgeType[eid] = DROPPED;
    for (let et = 0; et < this.edgeTypes.length; et++) {
      if (sorted.has(et)) {
        this.out[et] = csr(n, this.edgeType, et, this.edgeFrom, this.edgeTo);
        this.in[et] = csr(n, this.edgeType, et, this.edgeTo, this.edgeFrom);
      } else if (n > sizeBefore) {
        this.out[et] = widened(this.out[et]!, n);
        this.in[et] = widened(this.in[et]!, n);
      }
    }
    // What was worked out per vertex or per adjacency is for the old arrays.
    this.degrees.clear();
    this.scratchArrays = undefined;
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

/** The edge type of a dropped edge: no adjacency lists it. */
const DROPPED = 0xffff;

/**
 * Past this share of dropped vertices or edges (and this many), the next write has the view
 * built anew rather than carry more unused places in its arrays.
 */
const DEAD_SHARE = 1 / 4;
const DEAD_ANYWAY = 1024;

/** DATETIME values are held as seconds since the epoch, so that they compare and subtract as numbers. */
export function toEpoch(v: unknown): number {
  const checked = parseDatetime(v);
  return checked.ok ? Date.parse(`${String(checked.value).replace(' ', 'T')}Z`) / 1000 : 0;
}

/** A typed array with `more` after its elements. */
function appended<A extends Uint16Array | Int32Array>(before: A, more: number[], Make: new (n: number) => A): A {
  const out = new Make(before.length + more.length);
  out.set(before);
  out.set(more, before.length);
  return out;
}

/** An adjacency over `n` vertices where the ones past its end have no edges. */
function widened(adj: Adjacency, n: number): Adjacency {
  const off = new Int32Array(n + 1);
  off.set(adj.off);
  off.fill(adj.off[adj.off.length - 1]!, adj.off.length);
  return { off, nbr: adj.nbr, eid: adj.eid };
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

interface HeldView {
  key: string;
  view: GraphView;
  /** Rows written since the view was last current, taken in when a query next asks for it. */
  pending: WrittenRows[];
  pendingRows: number;
}

const views = new WeakMap<GraphStore, HeldView>();

/**
 * The view of a store's data as it is now: rebuilt when a write (of this process or, through
 * SQLite's data_version, of another connection) or a schema change happened since it was built,
 * other than the writes it was told of (writingRows), whose rows it takes in instead.
 */
export function graphView(store: GraphStore): GraphView {
  const key = viewKey(store);
  const held = views.get(store);
  if (held && held.key === key) {
    if (held.pending.length === 0) return held.view;
    const { pending } = held;
    held.pending = [];
    held.pendingRows = 0;
    if (held.view.absorb(store, pending)) return held.view;
  }
  const view = GraphView.build(store);
  keepView(store, view);
  return view;
}

/**
 * Rows written between queries and taken into the view rather than the view built anew: up to
 * this share of the view's vertices, past which reading them one by one costs about what a
 * build does, or this many, which cost a few ms.
 */
const ABSORB_SHARE = 1 / 8;
const ABSORB_ANYWAY = 1024;

/**
 * Runs `write`, which lists the rows it touches in `touched` (undefined when no view is current),
 * and when the view was current, notes them for the next query to take in (GraphView.absorb):
 * an application that upserts or deletes a few vertices and edges between queries pays for
 * those rows, not for reading the whole graph again. The rows are read back when a query asks,
 * once for every write since the last, so that a burst of writes with no query between costs
 * nothing here. A write of more rows than the view takes in, or any write not made through here,
 * has the next query build the view anew.
 */
export function writingRows<T>(store: GraphStore, write: (touched: TouchedRows | undefined) => T): T {
  const held = views.get(store);
  const current = held !== undefined && held.key === viewKey(store);
  const room = current ? roomIn(held) : 0;
  const touched = room > 0 ? new TouchedRows(room) : undefined;
  const result = write(touched);
  if (current && touched && !touched.tooMany && noteRows(held, touched.chunks)) held.key = viewKey(store);
  return result;
}

/** How many rows, pending together, the view takes in before a build costs less. */
const absorbLimit = (view: GraphView) => Math.max(ABSORB_ANYWAY, Math.floor(view.size * ABSORB_SHARE));

/** How many more rows the view would take in. */
function roomIn(held: HeldView): number {
  return Math.max(0, absorbLimit(held.view) - held.pendingRows);
}

/** Adds rows for the view to take in; false when they are too many (the view is then built anew). */
function noteRows(held: HeldView, rows: readonly WrittenRows[]): boolean {
  let pendingRows = held.pendingRows;
  for (const r of rows) pendingRows += r.vertices.length + r.edges.length;
  if (pendingRows > absorbLimit(held.view)) return false;
  held.pending.push(...rows);
  held.pendingRows = pendingRows;
  return true;
}

/**
 * The rows written since `view` was last brought up to date, when it is still the store's view
 * and every write since was noted (writingRows); undefined when it no longer is. A run that let
 * other requests in reads this before it commits, so that what they wrote is not forgotten.
 */
export function rowsSince(store: GraphStore, view: GraphView): readonly WrittenRows[] | undefined {
  const held = views.get(store);
  return held && held.view === view && held.key === viewKey(store) ? [...held.pending] : undefined;
}

/**
 * After a query wrote through its view (and to SQLite), the view is still the data's: keep it,
 * with the rows its INSERTs and DELETEs touched (and those others wrote while it ran) to take in
 * at the next query.
 */
export function keepView(store: GraphStore, view: GraphView, touched: readonly WrittenRows[] = []): void {
  const held: HeldView = { key: viewKey(store), view, pending: [], pendingRows: 0 };
  if (noteRows(held, touched)) views.set(store, held);
  else dropView(store);
}

export function dropView(store: GraphStore): void {
  views.delete(store);
}

function viewKey(store: GraphStore): string {
  return `${store.writes}:${store.externalVersion}:${store.catalog.version}`;
}
