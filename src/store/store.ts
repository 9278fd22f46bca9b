import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type SqliteDatabase as KyselySqliteDatabase, type SqliteStatement, type Transaction } from 'kysely';
import type { DB } from './schema.js';
import { migrations } from './migrations/index.js';
import { sqliteChangeToken, type MonotonicNow } from './sqlite-change-token.js';

export type DialectName = 'sqlite' | 'postgres';
/** Anything queries run on: the database or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

export interface Store {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  /** Runs fn in one transaction; SQLite takes the write lock up front (BEGIN IMMEDIATE). */
  transaction<T>(fn: (trx: Executor) => Promise<T>): Promise<T>;
  /**
   * A value that changes whenever committed data may have changed: at once for this
   * process's writes, within OTHER_COMMITS_SEEN_WITHIN_MS for another process's (whose store
   * holds its close that long, so a command that wrote and returned has been seen).
   * Read-through caches compare it. Undefined where no cheap exact answer exists
   * (PostgreSQL: other processes' commits are not visible without a query per table).
   */
  changeToken(): number | undefined;
  /** Throws when the store cannot answer a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Errors of idle PostgreSQL connections (e.g. the server restarted); the pool replaces them. */
  onIdleError?: (err: Error) => void;
  /** The monotonic clock SQLite's change token reads (tests hold it still). */
  monotonicNow?: MonotonicNow;
}

function openSqliteFile(dataDir: string): SqliteDatabase.Database {
  mkdirSync(dataDir, { recursive: true });
  const file = new SqliteDatabase(path.join(dataDir, 'acacia.db'));
  // WAL lets the CLI and a running server share the file; busy_timeout makes a writer wait
  // for the other instead of failing at once.
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  file.pragma('synchronous = NORMAL');
  return file;
}

/** How many distinct SQL texts keep their prepared statement (the queries are a fixed set, plus `in (…)` lists of varying length). */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely's SQLite driver prepares every query anew, which costs about as much as running a
 * small one. Statements are reused per SQL text, least recently used dropped first. Reuse is
 * safe: better-sqlite3 runs a statement synchronously to completion before the next call.
 * `wrote` is told of every statement that changed rows (the change token counts them).
 */
function reusingStatements(file: SqliteDatabase.Database, wrote: () => void): KyselySqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => file.close(),
    prepare(text: string) {
      const statement = cache.get(text) ?? announcingWrites(file.prepare(text), wrote);
      // Re-inserting moves the text to the end: the Map's first key is the least recently used.
      cache.delete(text);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(text, statement);
      return statement;
    },
  };
}

/**
 * The statement itself when it only reads (SQLite's own judgement); otherwise one that tells
 * `wrote` when it changed rows. Statements that match nothing (the engine's claims, mostly)
 * change no data and must not look like changes to the read cache.
 */
function announcingWrites(statement: SqliteDatabase.Statement, wrote: () => void): SqliteStatement {
  if (statement.readonly) return statement;
  return {
    reader: statement.reader,
    all: (parameters) => {
      // A writing statement that returns rows (RETURNING) returns one per row it changed.
      const rows = statement.all(parameters);
      if (rows.length > 0) wrote();
      return rows;
    },
    run: (parameters) => {
      const result = statement.run(parameters);
      if (result.changes > 0) wrote();
      return result;
    },
    iterate: (parameters) => {
      wrote();
      return statement.iterate(parameters);
    },
  };
}

function postgresDialect(connectionString: string, onIdleError: (err: Error) => void) {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // bigint columns hold epoch milliseconds, well inside Number's exact range.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // Without a listener, an idle connection's error would crash the process.
  pool.on('error', onIdleError);
  return new PostgresDialect({ pool });
}

/** Opens the store named by the options and applies pending migrations (Kysely's migrator locks while it runs). */
export async function openStore(options: StoreOptions): Promise<Store> {
  const dialect: DialectName = options.databaseUrl ? 'postgres' : 'sqlite';
  const file = options.databaseUrl ? undefined : openSqliteFile(options.dataDir);
  const token = file && sqliteChangeToken(file, options.monotonicNow);
  const db = new Kysely<DB>({
    dialect: file && token ? new SqliteDialect({ database: reusingStatements(file, token.wrote) }) : postgresDialect(options.databaseUrl!, options.onIdleError ?? (() => undefined)),
  });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  } catch (err) {
    await db.destroy();
    await token?.close();
    throw err;
  }
  return {
    db,
    dialect,
    changeToken: token ? token.read : () => undefined,
    transaction: dialect === 'sqlite' ? (fn) => immediateTransaction(db, fn) : (fn) => db.transaction().execute(fn),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await token?.close();
      await db.destroy();
    },
  };
}

/**
 * A deferred SQLite transaction that reads and then writes fails at once with SQLITE_BUSY
 * when another connection (the CLI, another process) wrote in between; taking the write
 * lock at BEGIN makes it wait for busy_timeout instead.
 */
async function immediateTransaction<T>(db: Kysely<DB>, fn: (trx: Executor) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}

/** True when err is a foreign-key violation on either store: a row referred to went, or a referring one came, meanwhile. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** True when err is a unique-constraint violation on either store. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
