import type Database from 'better-sqlite3';
import type { EdgeView, StoredVertexType } from '../catalog.js';
import type { GraphStore } from '../graph-store.js';
import type { AttributeDef, AttributeValue } from '../schema-types.js';
import { edgesByTarget } from '../store-file.js';
import { idAsAttribute } from '../attribute-values.js';
import type { TouchedRows } from '../touched-rows.js';
import { foldInto, foldOntoRow, type Folded } from './job-values.js';

type Attrs = Record<string, AttributeValue>;

/** Rows per multi-row INSERT: few statement runs, far below SQLite's limit on bound parameters. */
const ROWS = 256;

/**
 * SQLite's page cache during a bulk write, in KiB: the pages of the indexes an edge touches
 * stay in memory instead of being read back from the file. The connection's own size is set
 * back when the write ends.
 *
 * During the write, temporary files are kept in memory too (`temp_store = MEMORY`). An
 * upsert inside a transaction copies each page it is first to change into a statement
 * journal, to undo the statement alone if it fails; as a file, that was a `pwrite` per page.
 * One statement changes at most a few pages per row, so the journal in memory stays within a
 * few MiB. (Most edges are written without one: see `flush`.)
 */
const BULK_CACHE_KIB = 256 * 1024;

/**
 * The index of edges by target is dropped and built again when the edges written are at least
 * 1/REBUILD_RATIO of those already there: building it sorts its entries once, where inserting
 * them one by one lands each at a random place of a large index. (Rows are written in source
 * order, so the unique index takes them in order, and edges_by_type takes each at its end.)
 */
const REBUILD_RATIO = 3;

/** The vertices of one type named by the lines: by id, the values the lines gave. */
interface VertexGroup {
  type: StoredVertexType;
  /** Vertex lines: later values over earlier ones. */
  given: Map<string, Attrs>;
  /** What vertex lines give attributes that combine (collections, REDUCE), folded; joined to the row's at the write. */
  folded: Map<string, Folded>;
  /** Edge ends: made with default attributes when they do not exist. */
  ends: Set<string>;
}

interface PendingEdge {
  toId: string;
  patch: Attrs;
  /** What the lines give attributes that combine (collections, REDUCE). */
  folded: Folded | undefined;
  /** Whether the patch has every attribute, in the type's order: it is then the row's JSON. */
  whole: boolean;
}

/** The edges of one edge type between two vertex types, by source id. */
interface EdgeGroup {
  view: EdgeView;
  from: StoredVertexType;
  to: StoredVertexType;
  bySource: Map<string, PendingEdge[]>;
}

const byToId = (a: PendingEdge, b: PendingEdge) => (a.toId < b.toId ? -1 : a.toId > b.toId ? 1 : 0);

/**
 * The write side of a loading job: the objects of many lines, gathered and written together
 * inside one transaction, with what TigerGraph's loader does for each line:
 * - a vertex line makes the vertex with default attributes and the line's values, or sets
 *   the line's values on the vertex that exists;
 * - an edge line makes each end vertex that does not exist, with default attributes;
 * - an edge line makes the edge, or sets the line's values on the edge that exists (edge
 *   types here are not MULTI: one edge per pair of ends and type).
 * Lines naming the same vertex or edge are folded into one write, later values over earlier
 * ones, which is what writing them one by one leaves. Rows are written in key order, so the
 * unique indexes are walked in order, many to a statement, each statement prepared once.
 */
export class BulkWriter {
  private vertexGroups = new Map<number, VertexGroup>();
  private edgeGroups = new Map<number, EdgeGroup>();
  private count = 0;
  private edgeCount = 0;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** Whether the index of edges by target was dropped, to be built at the end. */
  private indexDropped = false;

  private constructor(
    private readonly store: GraphStore,
    private readonly written: TouchedRows | undefined,
  ) {
    this.db = store.db;
  }

  /**
   * Runs `fill` with a writer in one write transaction of the store, and writes what is left
   * pending at the end: nothing is kept when anything throws.
   */
  static write<T>(store: GraphStore, fill: (writer: BulkWriter) => T, written?: TouchedRows): T {
    const { db } = store;
    const cache = db.pragma('cache_size', { simple: true }) as number;
    const temp = db.pragma('temp_store', { simple: true }) as number;
    db.pragma(`cache_size = ${-BULK_CACHE_KIB}`);
    db.pragma('temp_store = MEMORY');
    try {
      return store.write(() => {
        const writer = new BulkWriter(store, written);
        const result = fill(writer);
        writer.flush();
        if (writer.indexDropped) {
          // Sorting a whole index may spill past the page cache: to a file, as it would outside a load.
          db.pragma(`temp_store = ${temp}`);
          db.exec(edgesByTarget.sql);
        }
        return result;
      });
    } finally {
      db.pragma(`cache_size = ${cache}`);
      db.pragma(`temp_store = ${temp}`);
    }
  }

  /** Vertex and edge lines waiting to be written (their end vertices, at most two an edge, aside). */
  get pending(): number {
    return this.count;
  }

  private vertexGroup(type: StoredVertexType): VertexGroup {
    let group = this.vertexGroups.get(type.id);
    if (!group)
      this.vertexGroups.set(type.id, (group = { type, given: new Map(), folded: new Map(), ends: new Set() }));
    return group;
  }

  vertex(type: StoredVertexType, id: string, patch: Attrs, folds?: Folded): void {
    const { given, folded } = this.vertexGroup(type);
    const seen = given.get(id);
    if (seen) Object.assign(seen, patch);
    else given.set(id, patch);
    if (folds) {
      const before = folded.get(id);
      if (before) foldInto(before, folds, type.attributes);
      else folded.set(id, folds);
    }
    this.count++;
  }

  /** An edge with its ends as stored: FROM→TO when directed, a fixed order when undirected. */
  edge(
    view: EdgeView,
    from: StoredVertexType,
    fromId: string,
    to: StoredVertexType,
    toId: string,
    patch: Attrs,
    folds?: Folded,
  ) {
    this.vertexGroup(from).ends.add(fromId);
    this.vertexGroup(to).ends.add(toId);
    // Type ids are small: one number names the pair of ends and the edge type.
    const key = (from.id * 0x10000 + view.type.id) * 0x10000 + to.id;
    let group = this.edgeGroups.get(key);
    if (!group) this.edgeGroups.set(key, (group = { view, from, to, bySource: new Map() }));
    let given = 0;
    for (const name in patch) if (name) given++;
    // Attributes that combine are not in the patch, so a line with any is never whole.
    const edge = { toId, patch, folded: folds, whole: given === view.type.attributes.length };
    const list = group.bySource.get(fromId);
    if (list) list.push(edge);
    else group.bySource.set(fromId, [edge]);
    this.count++;
    this.edgeCount++;
  }

  /** Writes what is pending; the caller's transaction keeps it all or nothing. */
  flush(): void {
    const { store } = this;
    const vertexGroups = [...this.vertexGroups.values()].sort((a, b) => a.type.id - b.type.id);
    const patchVertex = this.statement(
      'vertex',
      'INSERT INTO vertices (type_id, id, attrs) VALUES (?, ?, ?) ' +
        'ON CONFLICT (type_id, id) DO UPDATE SET attrs = json_patch(attrs, ?)',
    );
    const { written } = this;
    for (const { type, given, folded, ends } of vertexGroups) {
      const stored =
        folded.size > 0
          ? this.statement('vertex-attrs', 'SELECT attrs FROM vertices WHERE type_id = ? AND id = ?')
          : undefined;
      for (const id of [...given.keys()].sort()) {
        const patch = given.get(id)!;
        const folds = folded.get(id);
        if (folds) foldOntoRow(patch, folds, type.attributes, stored!.pluck().get(type.id, id) as string | undefined);
        written?.vertex({ type, id });
        const full = { ...store.defaultVertexAttributes(type, id), ...patch };
        patchVertex.run(type.id, id, JSON.stringify(full), JSON.stringify(patch));
      }
      // A vertex line's row is there now: an edge to it makes nothing.
      const made = [...ends].filter((id) => !given.has(id)).sort();
      const defaults = this.defaultVertexJson(type);
      const out = this.multiRow(3, (n, params) =>
        this.statement(
          `ends:${n}`,
          () => `INSERT OR IGNORE INTO vertices (type_id, id, attrs) VALUES ${values(n, 3)}`,
        ).run(params),
      );
      for (const id of made) {
        out.params.push(type.id, id, defaults(id));
        out.added();
      }
      out.end();
    }

    const edgeGroups = [...this.edgeGroups.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g);
    const edges = this.edgeCount;
    if (!this.indexDropped && edges > 0) {
      const existing = Number(this.db.prepare('SELECT max(rowid) FROM edges').pluck().get() ?? 0);
      if (existing <= REBUILD_RATIO * edges) {
        this.db.exec(`DROP INDEX IF EXISTS ${edgesByTarget.name}`);
        // The statements were prepared for the indexes as they were.
        this.statements.clear();
        this.indexDropped = true;
      }
    }
    const patchEdge = this.statement(
      'edge',
      'INSERT INTO edges (type_id, from_type, from_id, to_type, to_id, attrs) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (from_type, from_id, type_id, to_type, to_id) DO UPDATE SET attrs = json_patch(attrs, ?)',
    );
    for (const { view, from, to, bySource } of edgeGroups) {
      const defaults = store.defaultEdgeAttributes(view.type);
      // Edges whose lines gave every attribute are written many to a statement; the rest (a `_`
      // among the values) one by one, since what they leave of an existing edge differs.
      // Those are inserted with OR IGNORE, which SQLite runs without a statement journal: an
      // upsert copies every page it is first to change into one, in case it must be undone alone,
      // and the index of edges by target has a new page for nearly every row. The rare statement
      // that met existing edges runs again as an upsert; the rows it has just made hold these very
      // values, and the condition leaves them as they are.
      const out = this.multiRow(6, (n, params) => {
        if (this.statement(`edges:${n}`, () => `INSERT OR IGNORE ${edgeRows(n)}`).run(params).changes === n) return;
        this.statement(
          `edges-upsert:${n}`,
          () =>
            `INSERT ${edgeRows(n)} ON CONFLICT (from_type, from_id, type_id, to_type, to_id) ` +
            'DO UPDATE SET attrs = json_patch(attrs, excluded.attrs) WHERE attrs <> excluded.attrs',
        ).run(params);
      });
      const attributes = view.type.attributes;
      for (const fromId of [...bySource.keys()].sort()) {
        for (const edge of byTarget(bySource.get(fromId)!, attributes)) {
          if (edge.folded) {
            const row = this.statement(
              'edge-attrs',
              'SELECT attrs FROM edges ' +
                'WHERE from_type = ? AND from_id = ? AND type_id = ? AND to_type = ? AND to_id = ?',
            )
              .pluck()
              .get(from.id, fromId, view.type.id, to.id, edge.toId) as string | undefined;
            foldOntoRow(edge.patch, edge.folded, attributes, row);
          }
          written?.edge({ view, from: { type: from, id: fromId }, to: { type: to, id: edge.toId } });
          if (edge.whole) {
            out.params.push(view.type.id, from.id, fromId, to.id, edge.toId, JSON.stringify(edge.patch));
            out.added();
          } else
            patchEdge.run(
              view.type.id,
              from.id,
              fromId,
              to.id,
              edge.toId,
              JSON.stringify({ ...defaults, ...edge.patch }),
              JSON.stringify(edge.patch),
            );
        }
      }
      out.end();
    }

    this.vertexGroups.clear();
    this.edgeGroups.clear();
    this.count = 0;
    this.edgeCount = 0;
  }

  /** Rows written `ROWS` at a time by `write` as they are added, the rest at `end`. */
  private multiRow(width: number, write: (rows: number, params: (string | number)[]) => void) {
    const params: (string | number)[] = [];
    const run = () => {
      const n = params.length / width;
      if (n > 0) write(n, params);
      params.length = 0;
    };
    return {
      /** The values of the rows not yet written, `width` a row. */
      params,
      /** Called after each row's values are pushed. */
      added: () => {
        if (params.length === ROWS * width) run();
      },
      end: run,
    };
  }

  /**
   * The JSON of a vertex of `type` with default attributes, by id: the text around the id made
   * once, as the id (when kept as an attribute) is the only value that differs.
   */
  private defaultVertexJson(type: StoredVertexType): (id: string) => string {
    const general = (id: string) => JSON.stringify(this.store.defaultVertexAttributes(type, id));
    if (type.compositeKey) return general;
    const marker = '\u0000id\u0000';
    const attrs = this.store.defaultVertexAttributes(type, '0');
    for (const a of type.attributes) if (a.isPrimaryKey) attrs[a.name] = marker;
    const parts = JSON.stringify(attrs).split(JSON.stringify(marker));
    if (parts.length === 1) return () => parts[0]!;
    if (parts.length > 2) return general;
    const [before, after] = parts as [string, string];
    return (id) => before + JSON.stringify(idAsAttribute(type.primaryId.type, id)) + after;
  }

  private statement(name: string, sql: string | (() => string)): Database.Statement {
    let st = this.statements.get(name);
    if (!st) this.statements.set(name, (st = this.db.prepare(typeof sql === 'string' ? sql : sql())));
    return st;
  }
}

/**
 * The edges of one source in target order, the lines naming the same target folded into one
 * (later values over earlier ones; the sort is stable, so lines keep their order).
 */
function byTarget(list: PendingEdge[], attributes: AttributeDef[]): PendingEdge[] {
  if (list.length === 1) return list;
  list.sort(byToId);
  const out: PendingEdge[] = [];
  for (const edge of list) {
    const last = out[out.length - 1];
    if (last?.toId !== edge.toId) {
      out.push(edge);
      continue;
    }
    // When the first line gave every attribute, the patch keeps them in the type's order.
    Object.assign(last.patch, edge.patch);
    if (edge.folded) {
      if (last.folded) foldInto(last.folded, edge.folded, attributes);
      else last.folded = edge.folded;
      // Its patch is then joined to the stored row's values: not a whole row to insert as it is.
      last.whole = false;
    }
  }
  return out;
}

/** `INTO edges (…) VALUES …` for `n` rows: what the insert of new edges and its upsert share. */
const edgeRows = (n: number) =>
  `INTO edges (type_id, from_type, from_id, to_type, to_id, attrs) VALUES ${values(n, 6)}`;

/** `(?, ?, …), …`: `rows` groups of `width` parameters. */
function values(rows: number, width: number): string {
  const one = `(${Array.from({ length: width }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => one).join(', ');
}
