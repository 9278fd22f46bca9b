import { CompiledQuery, type Compilable } from 'kysely';
import type { CommittedReads, Executor, Store } from './store.js';

/** A query built with stand-ins for its values (`value(i)` for the i-th value a read is given). */
type Build<Row> = (db: Executor, value: (i: number) => never) => Compilable<Row>;

interface Compiled {
  text: string;
  /** For each value the statement binds: which of the read's values, or a constant of the query. */
  binds: Array<{ value: number } | { constant: unknown }>;
}

/** Stand-ins no real value equals, so each bound value is traced back to the read's argument. */
const standIn = (i: number) => `<fixed-read stand-in for value ${i}>`;
const STAND_IN = /^<fixed-read stand-in for value (\d+)>$/;

function compile<Row>(db: Executor, build: Build<Row>): Compiled {
  const query = build(db, (i) => standIn(i) as never).compile();
  return {
    text: query.sql,
    binds: query.parameters.map((p) => {
      const at = typeof p === 'string' ? STAND_IN.exec(p) : null;
      return at ? { value: Number(at[1]) } : { constant: p };
    }),
  };
}

/** Rows remembered per read and store; past it the memory starts again. */
const REMEMBERED_ROWS = 10_000;

/** Rows read while the store stood at `version`, by the values they were read with. */
interface Remembered {
  version: number;
  rows: Map<string, unknown>;
}

export interface FixedReadOptions {
  /**
   * SQLite: keep the rows read, until any connection commits (`CommittedReads.version`). For
   * reads repeated with the same values (a workspace's state, a credential), whose rows a
   * read would give again unchanged as long as nothing was written. Not for reads given the time.
   */
  remember?: boolean;
}

/**
 * Lookups made on every request of a hot path (the gateway's admission) by one fixed SQL text:
 * on SQLite a synchronous read of committed data on the read-only connection (committedReads),
 * on PostgreSQL a statement prepared once per connection under `name`. The text is compiled
 * once per store, which saves building and compiling the query every time. Each read sees the
 * latest commit of any process: a revocation, a disabled user or a state change counts at
 * once, as with a query built per request; a remembered row is given only while no commit
 * has happened since it was read.
 */
export function fixedRead<Row>(
  name: string,
  build: Build<Row>,
  options: FixedReadOptions = {},
): {
  /** The first row; without a promise where the store reads synchronously (SQLite). */
  firstNow(store: Store, ...values: unknown[]): Row | undefined | Promise<Row | undefined>;
  first(store: Store, ...values: unknown[]): Promise<Row | undefined>;
  all(store: Store, ...values: unknown[]): Promise<Row[]>;
} {
  const compiled = new WeakMap<Store, Compiled>();
  const prepare = (store: Store, values: unknown[]) => {
    let c = compiled.get(store);
    if (!c) compiled.set(store, (c = compile(store.db, build)));
    return { text: c.text, params: c.binds.map((b) => ('value' in b ? values[b.value] : b.constant)) };
  };
  const query = async (store: Store, text: string, params: unknown[]): Promise<Row[]> =>
    (await store.db.executeQuery<Row>(CompiledQuery.raw(`/* prepared:${name} */ ${text}`, params))).rows;
  const memory = new WeakMap<CommittedReads, Remembered>();
  /** On SQLite: `read`'s answer, or the one it gave for these values while the store stood where it stands. */
  const recall = <T>(reads: CommittedReads, key: string, values: unknown[], read: () => T): T => {
    if (!options.remember) return read();
    // The version is read first: a commit landing between it and the read moves it again,
    // so the next read starts afresh, however new the row kept here is.
    const version = reads.version();
    let kept = memory.get(reads);
    if (!kept || kept.version !== version || kept.rows.size >= REMEMBERED_ROWS)
      memory.set(reads, (kept = { version, rows: new Map() }));
    const id = `${key}\0${JSON.stringify(values)}`;
    if (kept.rows.has(id)) return kept.rows.get(id) as T;
    const answer = read();
    // Callers share a remembered row: none may change it.
    kept.rows.set(id, deepFreeze(answer));
    return answer;
  };
  const firstNow = (store: Store, ...values: unknown[]) => {
    const { text, params } = prepare(store, values);
    const reads = store.committedReads;
    if (reads) return recall(reads, 'first', params, () => reads.statement(text).get(...params) as Row | undefined);
    return query(store, text, params).then((rows) => rows[0]);
  };
  return {
    firstNow,
    first: async (store, ...values) => firstNow(store, ...values),
    all: async (store, ...values) => {
      const { text, params } = prepare(store, values);
      const reads = store.committedReads;
      if (reads) return recall(reads, 'all', params, () => reads.statement(text).all(...params) as Row[]);
      return query(store, text, params);
    },
  };
}

/** Rows and lists of rows, frozen with what they hold. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
