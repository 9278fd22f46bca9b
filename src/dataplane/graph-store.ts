import type Database from 'better-sqlite3';
import { idAsAttribute } from './attribute-values.js';
import { Catalog, type StoredEdgeType, type StoredVertexType } from './catalog.js';
import { DataPlaneError, fail } from './errors.js';
import type { AttributeValue, EdgeTypeDef, GraphDef, SchemaJobDef, TupleDef, VertexTypeDef } from './schema-types.js';
import { openStoreFile } from './store-file.js';
import { shapeDefault } from './typed-values.js';
import { compositeKeyValues } from './composite-key.js';

export interface StoreCounts {
  vertex_count: number;
  edge_count: number;
  /** Bytes of the store's live pages: vertices, edges, their indexes and the schema. */
  graph_topology_size_bytes: number;
}

/**
 * A graph store open in the process that serves it: the schema in memory, the data in SQLite.
 * Every write runs in one transaction, so a refused request changes nothing.
 */
export class GraphStore {
  catalog!: Catalog;
  private dataVersion = -1;
  /** Write transactions this connection committed or tried: a view of the data built before one is stale. */
  writes = 0;
  /** Called after each write transaction commits (BackgroundCheckpoints). */
  afterCommit: (() => void) | undefined;
  private readonly dataVersionStmt: Database.Statement;
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(
    readonly db: Database.Database,
    readonly readOnly: boolean,
  ) {
    this.dataVersionStmt = db.prepare('PRAGMA data_version').pluck();
    this.refresh();
  }

  /**
   * A fixed statement, prepared once for this connection: preparing costs more than running a
   * short one, and a request path runs the same few each time.
   */
  prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  static open(file: string, opts: { readOnly?: boolean } = {}): GraphStore {
    return new GraphStore(openStoreFile(file, opts), opts.readOnly ?? false);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * Reloads the schema when another connection changed the file (a restore while the process
   * runs); SQLite's data_version moves only for other connections' commits, so this is cheap.
   */
  /** SQLite's data_version as last read: it moves when another connection (a restore) commits. */
  get externalVersion(): number {
    return this.dataVersion;
  }

  refresh(): void {
    const version = this.dataVersionStmt.get() as number;
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.catalog = this.loadCatalog();
  }

  private loadCatalog(): Catalog {
    const rows = (sql: string) => this.db.prepare(sql).all() as { id: number; definition: string }[];
    const version = Number(this.db.prepare(`SELECT value FROM store_meta WHERE key = 'catalog_version'`).pluck().get());
    const catalog = new Catalog(version);
    for (const r of rows('SELECT id, definition FROM vertex_types ORDER BY id'))
      catalog.addVertexType({ ...(JSON.parse(r.definition) as VertexTypeDef), id: r.id }, bytesOf(r.definition));
    for (const r of rows('SELECT id, definition FROM edge_types ORDER BY id'))
      catalog.addEdgeType({ ...(JSON.parse(r.definition) as EdgeTypeDef), id: r.id }, bytesOf(r.definition));
    for (const r of rows('SELECT definition FROM graphs ORDER BY rowid'))
      catalog.addGraph(JSON.parse(r.definition) as GraphDef, bytesOf(r.definition));
    for (const r of rows(`SELECT definition FROM schema_objects WHERE kind = 'tuple' ORDER BY rowid`))
      catalog.addTuple(JSON.parse(r.definition) as TupleDef, bytesOf(r.definition));
    for (const r of rows(`SELECT definition FROM schema_objects WHERE kind = 'job' ORDER BY rowid`)) {
      const job = JSON.parse(r.definition) as SchemaJobDef;
      catalog.jobs.set(job.name, job);
    }
    return catalog;
  }

  /** Runs `fn` in one write transaction; refused outright on a read-only store. */
  write<T>(fn: () => T): T {
    if (this.readOnly)
      throw new DataPlaneError('readOnly', 'This graph is read-only: it serves a snapshot and refuses writes.');
    this.writes++;
    const result = this.db.transaction(fn).immediate();
    this.afterCommit?.();
    return result;
  }

  /**
   * A schema change: `write` changes the catalog tables and the version moves, in one
   * transaction; once it committed, `apply` makes the same change to the schema in memory.
   * Reloading the whole schema instead would make a request of n schema statements cost n².
   */
  private changeSchema<T>(write: () => T, apply: (catalog: Catalog, written: T) => void): void {
    const written = this.write(() => {
      const result = write();
      this.db.prepare(`UPDATE store_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'`).run();
      return result;
    });
    try {
      apply(this.catalog, written);
      this.catalog.version++;
    } catch (err) {
      // The store has the change: the schema is read back whole rather than left half-changed.
      this.catalog = this.loadCatalog();
      throw err;
    }
  }

  /**
   * A definition as it is stored, refused (CatalogError) when it would take the schema past
   * its limit in bytes; what a reload reads is its JSON, parsed.
   */
  private definition(def: VertexTypeDef | EdgeTypeDef | GraphDef | TupleDef): { json: string; bytes: number } {
    const json = JSON.stringify(def);
    const bytes = bytesOf(json);
    this.catalog.checkRoom(bytes);
    return { json, bytes };
  }

  private insertType(table: 'vertex_types' | 'edge_types', name: string, json: string): number {
    return Number(
      this.db.prepare(`INSERT INTO ${table} (name, definition) VALUES (?, ?)`).run(name, json).lastInsertRowid,
    );
  }

  createVertexType(def: VertexTypeDef): void {
    const { json, bytes } = this.definition(def);
    this.changeSchema(
      () => this.insertType('vertex_types', def.name, json),
      (catalog, id) => catalog.addVertexType({ ...(JSON.parse(json) as VertexTypeDef), id }, bytes),
    );
  }

  createEdgeType(def: EdgeTypeDef): void {
    const { json, bytes } = this.definition(def);
    this.changeSchema(
      () => this.insertType('edge_types', def.name, json),
      (catalog, id) => catalog.addEdgeType({ ...(JSON.parse(json) as EdgeTypeDef), id }, bytes),
    );
  }

  createGraph(def: GraphDef): void {
    const { json, bytes } = this.definition(def);
    this.changeSchema(
      () => this.db.prepare('INSERT INTO graphs (name, definition) VALUES (?, ?)').run(def.name, json),
      (catalog) => catalog.addGraph(JSON.parse(json) as GraphDef, bytes),
    );
  }

  /** A graph's new definition: the local types a schema change job added to it or dropped. */
  replaceGraph(def: GraphDef): void {
    const { json, bytes } = this.definition(def);
    this.changeSchema(
      () => this.db.prepare('UPDATE graphs SET definition = ? WHERE name = ?').run(json, def.name),
      (catalog) => catalog.addGraph(JSON.parse(json) as GraphDef, bytes),
    );
  }

  createTuple(def: TupleDef): void {
    const { json, bytes } = this.definition(def);
    this.changeSchema(
      () =>
        this.db
          .prepare(`INSERT INTO schema_objects (kind, name, definition) VALUES ('tuple', ?, ?)`)
          .run(def.name, json),
      (catalog) => catalog.addTuple(JSON.parse(json) as TupleDef, bytes),
    );
  }

  dropTuple(name: string): void {
    this.changeSchema(
      () => this.db.prepare(`DELETE FROM schema_objects WHERE kind = 'tuple' AND name = ?`).run(name),
      (catalog) => catalog.removeTuple(name),
    );
  }

  /**
   * Runs `fn` as one transaction whose schema changes stand or fall together: when it throws,
   * the store rolls back and the schema in memory is read back from it.
   */
  schemaTransaction<T>(fn: () => T): T {
    try {
      return this.write(fn);
    } catch (err) {
      this.catalog = this.loadCatalog();
      throw err;
    }
  }

  saveJob(job: SchemaJobDef): void {
    const json = JSON.stringify(job);
    this.catalog.checkRoom(bytesOf(json));
    this.write(() =>
      this.db.prepare(`INSERT INTO schema_objects (kind, name, definition) VALUES ('job', ?, ?)`).run(job.name, json),
    );
    this.catalog.jobs.set(job.name, JSON.parse(json) as SchemaJobDef);
  }

  dropJobs(names: string[]): void {
    this.write(() => {
      for (const name of names) this.db.prepare(`DELETE FROM schema_objects WHERE kind = 'job' AND name = ?`).run(name);
    });
    for (const name of names) this.catalog.jobs.delete(name);
  }

  /** A type's new definition (same id) after ALTER … ATTRIBUTE; `rows` brings its stored rows in line. */
  replaceType(table: 'vertex_types' | 'edge_types', def: StoredVertexType | StoredEdgeType, rows: () => void): void {
    const { id, ...rest } = def;
    const { json, bytes } = this.definition(rest as VertexTypeDef);
    this.changeSchema(
      () => {
        this.db.prepare(`UPDATE ${table} SET definition = ? WHERE id = ?`).run(json, id);
        rows();
      },
      (catalog) => {
        if (table === 'vertex_types') catalog.addVertexType({ ...(JSON.parse(json) as VertexTypeDef), id }, bytes);
        else catalog.addEdgeType({ ...(JSON.parse(json) as EdgeTypeDef), id }, bytes);
      },
    );
  }

  /** Drops a graph with its queries and jobs; with `cascade`, its local types (and their data) and tuples too. */
  dropGraph(name: string, cascade = false): void {
    const c = this.catalog;
    const local = <T extends { name: string; graph?: string }>(m: Map<string, T>) =>
      cascade ? [...m.values()].filter((t) => t.graph === name) : [];
    const edges = local(c.edgeTypes) as StoredEdgeType[];
    const vertices = local(c.vertexTypes) as StoredVertexType[];
    const tuples = local(c.tuples);
    // Jobs, like queries, belong to their graph whether or not the types go too.
    const jobs = [...c.jobs.values()].filter((j) => j.graph === name);
    this.changeSchema(
      () => {
        this.db.prepare('DELETE FROM graphs WHERE name = ?').run(name);
        for (const e of edges) {
          this.db.prepare('DELETE FROM edges WHERE type_id = ?').run(e.id);
          this.db.prepare('DELETE FROM edge_types WHERE id = ?').run(e.id);
        }
        for (const v of vertices) {
          this.db.prepare('DELETE FROM vertices WHERE type_id = ?').run(v.id);
          this.db.prepare('DELETE FROM vertex_types WHERE id = ?').run(v.id);
        }
        for (const t of tuples)
          this.db.prepare(`DELETE FROM schema_objects WHERE kind = 'tuple' AND name = ?`).run(t.name);
        for (const j of jobs) this.db.prepare(`DELETE FROM schema_objects WHERE kind = 'job' AND name = ?`).run(j.name);
        this.db.prepare('DELETE FROM queries WHERE graph = ?').run(name);
        // The descriptions of its queries, kept as `<graph>.<query>` (names hold no dot).
        this.db
          .prepare(`DELETE FROM schema_objects WHERE kind = 'query_description' AND substr(name, 1, ?) = ?`)
          .run(name.length + 1, `${name}.`);
        this.db.prepare('DELETE FROM loading_jobs WHERE graph = ?').run(name);
      },
      (catalog) => {
        catalog.removeGraph(name);
        for (const e of edges) catalog.removeEdgeType(e.name);
        for (const v of vertices) catalog.removeVertexType(v.name);
        for (const t of tuples) catalog.removeTuple(t.name);
        for (const j of jobs) catalog.jobs.delete(j.name);
      },
    );
  }

  /** Drops vertex types and their vertices (the caller checked nothing uses them). */
  dropVertexTypes(names: string[]): void {
    this.changeSchema(
      () => {
        for (const name of names) {
          const type = this.catalog.vertexTypes.get(name)!;
          this.db.prepare('DELETE FROM vertices WHERE type_id = ?').run(type.id);
          this.db.prepare('DELETE FROM vertex_types WHERE id = ?').run(type.id);
        }
      },
      (catalog) => names.forEach((name) => catalog.removeVertexType(name)),
    );
  }

  dropEdgeTypes(names: string[]): void {
    this.changeSchema(
      () => {
        for (const name of names) {
          const type = this.catalog.edgeTypes.get(name)!;
          this.db.prepare('DELETE FROM edges WHERE type_id = ?').run(type.id);
          this.db.prepare('DELETE FROM edge_types WHERE id = ?').run(type.id);
        }
      },
      (catalog) => names.forEach((name) => catalog.removeEdgeType(name)),
    );
  }

  /** `DROP ALL`: every graph, type and row. */
  dropAll(): void {
    this.changeSchema(
      () => {
        for (const table of ['edges', 'vertices', 'graphs', 'edge_types', 'vertex_types', 'schema_objects'])
          this.db.prepare(`DELETE FROM ${table}`).run();
      },
      (catalog) => catalog.clear(),
    );
  }

  /** `CLEAR GRAPH STORE`: every vertex and edge; the schema stays. */
  clearData(): void {
    this.write(() => {
      this.db.prepare('DELETE FROM edges').run();
      this.db.prepare('DELETE FROM vertices').run();
    });
  }

  /** The graph named in a URL, or REST-1004 as TigerGraph words it. */
  graph(name: string | undefined, url: string): GraphDef {
    if (name === undefined) {
      // `POST /graph` without a name means the only graph, as on a single-graph server.
      if (this.catalog.graphs.size === 1) return [...this.catalog.graphs.values()][0]!;
      return fail(
        'graphNotFound',
        `A graph name is required in the url = '${url}' when the store holds several graphs.`,
      );
    }
    const graph = this.catalog.graphs.get(name);
    return (
      graph ??
      fail(
        'graphNotFound',
        `The graph name '${name}' parsed from the url = '${url}' is not found, please provide a valid graph name.`,
      )
    );
  }

  /** A vertex type of the graph, or REST-30000 as TigerGraph words it. */
  vertexType(graph: GraphDef, name: string): StoredVertexType {
    return (
      this.catalog.vertexTypeIn(graph, name) ??
      fail(
        'invalidPayload',
        `The input parameter vertex_type = '${name}' is not a valid vertex type in graph '${graph.name}'.`,
      )
    );
  }

  /** The attribute values of a vertex that is new: defaults, and its id where the id is an attribute. */
  defaultVertexAttributes(type: StoredVertexType, id: string): Record<string, AttributeValue> {
    const attrs: Record<string, AttributeValue> = {};
    for (const a of type.attributes)
      attrs[a.name] = a.isPrimaryKey ? idAsAttribute(type.primaryId.type, id) : (a.default ?? shapeDefault(a));
    if (type.compositeKey) {
      const key = compositeKeyValues(type, id);
      if (key.ok) Object.assign(attrs, key.values);
    }
    return attrs;
  }

  defaultEdgeAttributes(type: StoredEdgeType): Record<string, AttributeValue> {
    const attrs: Record<string, AttributeValue> = {};
    for (const a of type.attributes) attrs[a.name] = a.default ?? shapeDefault(a);
    return attrs;
  }

  counts(): StoreCounts {
    return readCounts(this.db);
  }
}

/** What a definition takes in the store file: its JSON as UTF-8. */
const bytesOf = (json: string): number => Buffer.byteLength(json);

/** Counts from the data; works on any connection to a store file. */
export function readCounts(db: Database.Database): StoreCounts {
  const one = (sql: string) => Number(db.prepare(sql).pluck().get());
  const pageSize = one('PRAGMA page_size');
  return {
    vertex_count: one('SELECT count(*) FROM vertices'),
    edge_count: one('SELECT count(*) FROM edges'),
    graph_topology_size_bytes: (one('PRAGMA page_count') - one('PRAGMA freelist_count')) * pageSize,
  };
}
