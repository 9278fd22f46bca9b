import fs from 'node:fs';
import Database from 'better-sqlite3';

/** Format of the tables below; a store written by a newer format is refused rather than misread. */
export const STORE_FORMAT = 1;

/**
 * The index of edges by target vertex: a bulk write may drop it and build it again at its end,
 * which costs less than inserting many entries at random places of it (see BulkWriter).
 */
export const edgesByTarget = {
  name: 'edges_by_target',
  sql: 'CREATE INDEX IF NOT EXISTS edges_by_target ON edges (to_type, to_id, type_id)',
} as const;

/**
 * One graph database per file. Types get small integer ids so that data rows stay short;
 * attribute values are one JSON object per row, keyed by attribute name. An undirected edge is
 * one row (its ends in a fixed order) and a directed edge's reverse is read from the same row,
 * so `edges_by_target` serves both. Loading jobs are kept as their parsed definition (JSON);
 * the table is created when a file from before them is next opened read-write.
 */
const schema = `
CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS vertex_types
  (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, definition TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS edge_types
  (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, definition TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS graphs (name TEXT PRIMARY KEY, definition TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS vertices (type_id INTEGER NOT NULL, id TEXT NOT NULL, attrs TEXT NOT NULL) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS vertices_by_id ON vertices (type_id, id);
CREATE TABLE IF NOT EXISTS edges (
  type_id INTEGER NOT NULL,
  from_type INTEGER NOT NULL, from_id TEXT NOT NULL,
  to_type INTEGER NOT NULL, to_id TEXT NOT NULL,
  attrs TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS edges_by_source ON edges (from_type, from_id, type_id, to_type, to_id);
${edgesByTarget.sql};
CREATE INDEX IF NOT EXISTS edges_by_type ON edges (type_id);
CREATE TABLE IF NOT EXISTS schema_objects
  (kind TEXT NOT NULL, name TEXT NOT NULL, definition TEXT NOT NULL, PRIMARY KEY (kind, name)) STRICT;
CREATE TABLE IF NOT EXISTS queries (
  graph TEXT NOT NULL, name TEXT NOT NULL, source TEXT NOT NULL, installed INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (graph, name)
) STRICT;
CREATE TABLE IF NOT EXISTS loading_jobs (name TEXT PRIMARY KEY, graph TEXT NOT NULL, definition TEXT NOT NULL) STRICT;
`;

/** Tables copied whole by a restore, in an order that needs no deferred checks. */
export const storeTables = ['store_meta', 'vertex_types', 'edge_types', 'graphs', 'vertices', 'edges'] as const;

/**
 * Tables that came later (user-defined tuples and jobs, queries): a restore copies them when the
 * snapshot has them, and empties them when it was taken before they existed.
 */
export const optionalStoreTables = ['schema_objects', 'queries', 'loading_jobs'] as const;

export class StoreFormatError extends Error {}

/** Reads the format a store file declares, refusing one this code cannot read. */
export function checkFormat(db: Database.Database, schemaName = 'main'): void {
  const row = db.prepare(`SELECT value FROM ${schemaName}.store_meta WHERE key = 'format'`).get() as
    { value: string } | undefined;
  if (!row) throw new StoreFormatError('the file is not a graph store (no format record)');
  if (Number(row.value) !== STORE_FORMAT)
    throw new StoreFormatError(`the store has format ${row.value}; this version reads format ${STORE_FORMAT}`);
}

/**
 * Graph data is the owner's only. A store file is made 0600 before SQLite opens it (SQLite
 * gives its `-wal` and `-shm` files the store file's mode, and would make it 0644), and one an
 * earlier version left readable by others is narrowed, with its `-wal` and `-shm`.
 */
export function privateStoreFile(file: string, opts: { create: boolean }): void {
  if (opts.create) fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const name of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (fs.statSync(name).mode & 0o077) fs.chmodSync(name, 0o600);
    } catch (err) {
      // Gone meanwhile, or another user's file this process may read but not change.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw err;
    }
  }
}

/**
 * Opens a store file. Read-write opens create the tables when missing and use WAL, so that
 * snapshots and statistics can be read from other connections while the process writes.
 */
export function openStoreFile(file: string, opts: { readOnly?: boolean } = {}): Database.Database {
  privateStoreFile(file, { create: !opts.readOnly });
  const db = new Database(file, { readonly: opts.readOnly ?? false, fileMustExist: opts.readOnly ?? false });
  try {
    db.pragma('busy_timeout = 10000');
    if (opts.readOnly) {
      checkFormat(db);
      return db;
    }
    db.pragma('journal_mode = WAL');
    // WAL with NORMAL loses no committed transaction when the process dies, only on power loss.
    db.pragma('synchronous = NORMAL');
    db.exec(schema);
    db.prepare(`INSERT OR IGNORE INTO store_meta (key, value) VALUES ('format', ?), ('catalog_version', '0')`).run(
      String(STORE_FORMAT),
    );
    checkFormat(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Creates an empty store file when there is none (the graph of a database nothing has served yet). */
export function ensureStoreFile(file: string): string {
  openStoreFile(file).close();
  return file;
}
