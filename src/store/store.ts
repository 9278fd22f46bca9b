import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteStatement,
  type Transaction,
} from 'kysely';
import type { DB } from './schema.js';
import { migrations } from './migrations/index.js';
import { StoreUnreachable } from './connection-loss.js';
import { Transactions } from './transactions.js';
import { countStatement } from './statement-tally.js';
import type { DialectName } from './dialect-of.js';
import type { EventWriter, Tx } from './unit-of-work.js';
import { KeyCache, type KeyForAuthentication } from './key-cache.js';

export { CommitFailed } from './transactions.js';
export { isConnectionLoss, isUncertainCommit } from './connection-loss.js';

export type { DialectName } from './dialect-of.js';
export { dialectOf } from './dialect-of.js';
export type { EventWriter, NotedChange, Tx } from './unit-of-work.js';
/** Anything queries run on: the database or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

export interface Store {
  /** The database, outside any transaction: code inside a unit of work uses its Tx's `db`. */
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  /**
   * Runs fn in a transaction of its own, handing it the unit of work (Tx) that every write
   * made in it receives; commits when fn resolves, rolls back when it rejects. SQLite takes
   * the write lock up front (BEGIN IMMEDIATE). A failed COMMIT throws CommitFailed.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs fn in the caller's unit of work when it has one (a savepoint of it, so fn's failure
   * undoes fn's writes only), else in a transaction of its own.
   */
  unit<T>(outer: Tx | undefined, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Where code that may run inside a unit of work reads: the unit's connection, else the database. */
  reader(outer: Tx | undefined): Executor;
  /**
   * Sets what writes the events of the changes repositories noted in a transaction, inside it,
   * just before COMMIT (`EventWriter`, src/store/unit-of-work.ts). Without it changes are not recorded.
   */
  recordEventsWith(writer: EventWriter): void;
  /** Calls listener after each of this process's commits that wrote events; returns the unsubscribe. */
  onEventsCommitted(listener: () => void): () => void;
  /**
   * SQLite only: synchronous reads of committed data, on a read-only connection of their
   * own (so never inside another request's open transaction). Another process's commit is
   * seen by the next read. For the lookups every request makes.
   */
  readonly committedReads?: CommittedReads;
  /** PostgreSQL only: API keys looked up, kept while every change to them is heard (key-cache.ts). */
  readonly keyCache?: KeyCache<KeyForAuthentication>;
  /** Throws when the store cannot answer a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface CommittedReads {
  /** The prepared statement for `sql` (prepared once per text). */
  statement(sql: string): SqliteDatabase.Statement;
  /**
   * SQLite's `data_version` on this connection: it moves whenever any other connection, of
   * this process or another, has committed since the last time it was read. Every write is
   * another connection's, as this one only reads. Read once per turn of the event loop: a
   * commit of this process's writer counts at once, another process's from the next turn.
   */
  version(): number;
}

export interface StoreOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL: keep API keys looked up while their changes are heard (key-cache.ts); off unless asked. */
  keyCache?: boolean;
  /**
   * Errors of PostgreSQL connections, idle or in use (the server restarted, or terminated
   * them); the statement in flight fails by itself and the pool replaces the connection.
   */
  onConnectionError?: (err: Error) => void;
}

/**
 * The data directory (made 0700 when it is made here) and the database file, 0600: SQLite
 * gives its `-wal` and `-shm` files the database file's mode, so the file is made (or
 * narrowed) first. Files an earlier version left readable by others are narrowed too.
 */
function privateDatabaseFile(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const name = path.join(dataDir, 'acacia.db');
  closeSync(openSync(name, 'a', 0o600));
  for (const file of [name, `${name}-wal`, `${name}-shm`]) {
    try {
      if (statSync(file).mode & 0o077) chmodSync(file, 0o600);
    } catch (err) {
      // Gone meanwhile, or another user's file this process may use but not change.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw err;
    }
  }
  return name;
}

function openSqliteFile(dataDir: string): SqliteDatabase.Database {
  const file = new SqliteDatabase(privateDatabaseFile(dataDir));
  // WAL lets the CLI and a running server share the file; busy_timeout makes a writer wait
  // for the other instead of failing at once.
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  file.pragma('synchronous = NORMAL');
  return file;
}

/** A read-only connection to the same file, opened on first use. */
function committedReadsOf(file: SqliteDatabase.Database): CommittedReads & { forget(): void; close(): void } {
  let reader: SqliteDatabase.Database | undefined;
  const statements = new Map<string, SqliteDatabase.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      if (!reader) {
        reader = new SqliteDatabase(file.name, { readonly: true, fileMustExist: true });
        reader.pragma('busy_timeout = 5000');
      }
      statement = reader.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  let dataVersion: SqliteDatabase.Statement | undefined;
  // Reading data_version opens and ends a read transaction, two locks on the -shm file: under
  // load the dearest part of the gateway's admission, which asks twice a request. It is read
  // once per turn of the event loop (the reads that ask run as requests arrive, and the
  // version is forgotten before the loop polls for more), and again after any statement of
  // this process's writer.
  let version: number | undefined;
  const forget = () => (version = undefined);
  return {
    statement(text) {
      // Counted when handed out: each caller runs it once, synchronously (its time is not measured).
      countStatement(0);
      return prepared(text);
    },
    version() {
      if (version === undefined) {
        version = (dataVersion ??= prepared('PRAGMA data_version').pluck()).get() as number;
        setImmediate(forget);
      }
      return version;
    },
    forget,
    close: () => reader?.close(),
  };
}

/**
 * How many distinct SQL texts keep their prepared statement (the queries are a fixed set, plus `in (…)` lists of
 * varying length).
 */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely's SQLite driver prepares every query anew, which costs about as much as running a
 * small one. Statements are reused per SQL text, least recently used dropped first. Reuse is
 * safe: better-sqlite3 runs a statement synchronously to completion before the next call.
 */
function reusingStatements(file: SqliteDatabase.Database, beforeEach: () => void): KyselySqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => file.close(),
    // Kysely runs each statement as soon as it is prepared.
    prepare(text: string) {
      beforeEach();
      const statement = cache.get(text) ?? file.prepare(text);
      // Re-inserting moves the text to the end: the Map's first key is the least recently used.
      cache.delete(text);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(text, statement);
      return statement;
    },
  };
}

/** A statement text that starts `/* prepared:<name> *\/` is prepared once per connection under that name. */
const PREPARED = /^\/\* prepared:([a-z0-9_-]+) \*\//;

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it each time. The hot
 * reads (the record views, the API key lookup) mark their fixed text; this connection sends
 * those as named statements, which pg prepares on first use per connection and then only
 * binds and executes.
 */
const preparing = new WeakSet<pg.PoolClient>();

function preparingNamed(client: pg.PoolClient): pg.PoolClient {
  // The pool hands the same client out again and again: wrap it once.
  if (preparing.has(client)) return client;
  preparing.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown) => {
    const name = typeof text === 'string' ? PREPARED.exec(text)?.[1] : undefined;
    return name === undefined ? query(text, values) : query({ name, text, values });
  };
  return client;
}

/** How long a request waits for a database connection (a free one, or a new one) before it fails. */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * The most connections a process's pool holds. With the two that listen (event signals and the
 * API key cache, listen-connection.ts) that is every connection a process has on PostgreSQL:
 * a connection the server ended is dropped by the pool, never returned to it, whether it was
 * idle or in use, and another is made only when one is needed.
 */
export const POOL_SIZE = 10;
/** How long an idle pooled connection is kept before it is closed. */
const POOL_IDLE_MS = 10_000;

function postgresDialect(connectionString: string, onConnectionError: (err: Error) => void) {
  const pool = new pg.Pool({
    connectionString,
    max: POOL_SIZE,
    idleTimeoutMillis: POOL_IDLE_MS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // bigint columns hold epoch milliseconds, well inside Number's exact range.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === Number(pg.types.builtins.INT8)
          ? Number
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A connection's 'error' event without a listener crashes the process. The pool listens
  // on idle connections only; a connection in use (checked out by a query or a transaction)
  // that the server terminates emits it too, so every connection gets a listener of its own.
  // The statement in flight fails by itself, and the pool drops the broken connection.
  pool.on('error', onConnectionError);
  pool.on('connect', (client) => client.on('error', onConnectionError));
  return new PostgresDialect({
    pool: {
      // A connection that cannot be made says so, whatever pg's error looks like.
      connect: () =>
        pool.connect().then(preparingNamed, (err: unknown) => {
          throw new StoreUnreachable(err);
        }),
      end: () => pool.end(),
    },
  });
}

/** Opens the store named by the options and applies pending migrations (Kysely's migrator locks while it runs). */
export async function openStore(options: StoreOptions): Promise<Store> {
  const dialect: DialectName = options.databaseUrl ? 'postgres' : 'sqlite';
  const file = options.databaseUrl ? undefined : openSqliteFile(options.dataDir);
  const committedReads = file && committedReadsOf(file);
  const keyCache =
    options.databaseUrl && options.keyCache
      ? new KeyCache<KeyForAuthentication>({
          databaseUrl: options.databaseUrl,
          ...(options.onConnectionError ? { onError: options.onConnectionError } : {}),
        })
      : undefined;
  const db = new Kysely<DB>({
    // Every statement is counted (/metrics), and added to the tally of the request it runs for.
    log: (event) => {
      if (event.level === 'query') countStatement(event.queryDurationMillis);
    },
    dialect: file
      ? // Any statement of the writer may be (or end) a commit, which committed reads must see at once.
        new SqliteDialect({ database: reusingStatements(file, () => committedReads!.forget()) })
      : postgresDialect(options.databaseUrl!, options.onConnectionError ?? (() => undefined)),
  });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error as Error;
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const transactions = new Transactions(db, dialect);
  return {
    db,
    dialect,
    ...(committedReads ? { committedReads } : {}),
    ...(keyCache ? { keyCache } : {}),
    transaction: (fn) => transactions.run(fn),
    unit: (outer, fn) => (outer ? outer.savepoint(fn) : transactions.run(fn)),
    reader: (outer) => outer?.db ?? db,
    recordEventsWith: (writer) => transactions.recordEventsWith(writer),
    onEventsCommitted: (listener) => transactions.onEventsCommitted(listener),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      committedReads?.close();
      await keyCache?.close();
      await db.destroy();
    },
  };
}

/**
 * True when err is a foreign-key violation on either store: a row referred to went, or a referring one came,
 * meanwhile.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** True when err is a unique-constraint violation on either store. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
