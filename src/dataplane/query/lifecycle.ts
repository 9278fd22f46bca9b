import { dataFolder } from '../data-folder.js';
import { CatalogError } from '../catalog.js';
import { DataPlaneError } from '../errors.js';
import type { GraphStore } from '../graph-store.js';
import { GsqlSyntaxError, lex } from '../gsql-lexer.js';
import { statementTokens } from '../gsql-split.js';
import type { GraphDef } from '../schema-types.js';
import type { WrittenRows } from '../touched-rows.js';
import type { Expr, QueryDef, QueryStatement, TypeRef } from './ast.js';
import { forgetDescriptions } from './description-rows.js';
import { compileQuery, QuerySemanticError, storedValue, type CompiledQuery } from './compile.js';
import { dropView, graphView, keepView, rowsSince, toEpoch, type GraphView } from './graph-view.js';
import { parseQueryStatement } from './parser.js';
import { QueryFiles } from './query-files.js';
import { QueryAbortedError, QueryTimeoutError, Run } from './runtime.js';
import { QueryRuntimeError } from './values.js';

/** A query's timeout when the request does not set one (GSQL-TIMEOUT, in ms). */
export const DEFAULT_TIMEOUT_MS = 16_000;

export interface RunOptions {
  timeoutMs?: number;
  /** How long the request already waited for its turn: it counts against the timeout. */
  waitedMs?: number;
  outputLimit?: number;
}

interface StoredQuery {
  graph: string;
  name: string;
  source: string;
  installed: boolean;
}

/** Compiled queries by store, keyed by graph and name, valid for one schema version and source. */
const compiledByStore = new WeakMap<GraphStore, Map<string, { version: number; source: string; q: CompiledQuery }>>();

/** One stored query of a graph, by name. */
export function readQuery(store: GraphStore, graph: string, name: string): StoredQuery | undefined {
  const row = store
    .prepared('SELECT graph, name, source, installed FROM queries WHERE graph = ? AND name = ?')
    .get(graph, name) as { graph: string; name: string; source: string; installed: number } | undefined;
  return row && { ...row, installed: row.installed === 1 };
}

export function listQueries(store: GraphStore, graph: string): StoredQuery[] {
  const rows = store
    .prepared('SELECT graph, name, source, installed FROM queries WHERE graph = ? ORDER BY name')
    .all(graph) as { graph: string; name: string; source: string; installed: number }[];
  return rows.map((r) => ({ ...r, installed: r.installed === 1 }));
}

export function parseDef(source: string): QueryDef {
  const tokens = [...statementTokens(lex(source))].filter((t) => t.kind !== 'break');
  const st = parseQueryStatement(tokens, source);
  if (st.kind !== 'createQuery' && st.kind !== 'interpretQuery') throw new Error('not a query definition');
  return st.def;
}

/**
 * Writes the query table in one transaction. Not through GraphStore.write: the graph's data does
 * not change, so the traversal view built from it stays valid.
 */
export function writeQueries(store: GraphStore, fn: () => void): void {
  if (store.readOnly)
    throw new DataPlaneError('readOnly', 'This graph is read-only: it serves a snapshot and refuses writes.');
  store.db.transaction(fn).immediate();
}

/** The compiled form of a stored query, compiled again only when its text or the schema changed. */
export function compiledQuery(store: GraphStore, graph: GraphDef, name: string): CompiledQuery | undefined {
  const stored = readQuery(store, graph.name, name);
  if (!stored) return undefined;
  let cache = compiledByStore.get(store);
  if (!cache) compiledByStore.set(store, (cache = new Map()));
  const key = `${graph.name}\u0000${name}`;
  const held = cache.get(key);
  if (held && held.version === store.catalog.version && held.source === stored.source) return held.q;
  const q = compileQuery(store.catalog, graph, parseDef(stored.source), (n) => !!readQuery(store, graph.name, n));
  cache.set(key, { version: store.catalog.version, source: stored.source, q });
  return q;
}

function graphFor(store: GraphStore, name: string | undefined): GraphDef {
  if (name === undefined)
    throw new CatalogError('No graph is in use: add FOR GRAPH to the query, or run USE GRAPH first.');
  const graph = store.catalog.graphs.get(name);
  if (!graph) throw new CatalogError(`The graph ${name} does not exist.`);
  return graph;
}

/** Runs a GSQL query statement and returns what GSQL prints; CatalogError refuses it. */
export function runQueryStatement(
  store: GraphStore,
  sessionGraph: string | undefined,
  st: QueryStatement,
  opts: RunOptions = {},
): string {
  switch (st.kind) {
    case 'createQuery': {
      const graph = graphFor(store, st.def.graph ?? sessionGraph);
      const exists = readQuery(store, graph.name, st.def.name);
      if (exists && !st.def.orReplace)
        throw new CatalogError(
          `The query ${st.def.name} already exists in graph ${graph.name}; ` +
            'use CREATE OR REPLACE QUERY, or drop it first.',
        );
      check(() =>
        compileQuery(store.catalog, graph, st.def, (n) => n === st.def.name || !!readQuery(store, graph.name, n)),
      );
      writeQueries(
        store,
        () =>
          void store.db
            .prepare(
              'INSERT INTO queries (graph, name, source, installed) VALUES (?, ?, ?, 0) ' +
                'ON CONFLICT (graph, name) DO UPDATE SET source = excluded.source, installed = 0',
            )
            .run(graph.name, st.def.name, st.def.source),
      );
      return `Successfully created queries: [${st.def.name}].`;
    }
    case 'installQuery': {
      const graph = graphFor(store, sessionGraph ?? soleGraph(store));
      const names = st.all ? listQueries(store, graph.name).map((q) => q.name) : st.names;
      for (const name of names) {
        if (!readQuery(store, graph.name, name))
          throw new CatalogError(`The query ${name} does not exist in graph ${graph.name}.`);
        check(() => compiledQuery(store, graph, name));
      }
      writeQueries(store, () => {
        const mark = store.db.prepare('UPDATE queries SET installed = 1 WHERE graph = ? AND name = ?');
        for (const name of names) mark.run(graph.name, name);
      });
      const lines = ['Start installing queries, about 1 minute ...'];
      for (const name of names)
        lines.push(
          `${name} query: curl -X GET 'http://127.0.0.1:9000/query/${graph.name}/${name}'. ` +
            'Add -d option to send JSON payload.',
        );
      lines.push('', 'Query installation finished.');
      return lines.join('\n');
    }
    case 'dropQuery': {
      const graph = graphFor(store, sessionGraph ?? soleGraph(store));
      const names = st.all ? listQueries(store, graph.name).map((q) => q.name) : st.names;
      for (const name of names)
        if (!readQuery(store, graph.name, name))
          throw new CatalogError(`The query ${name} does not exist in graph ${graph.name}.`);
      writeQueries(store, () => {
        const del = store.db.prepare('DELETE FROM queries WHERE graph = ? AND name = ?');
        for (const name of names) {
          del.run(graph.name, name);
          forgetDescriptions(store, graph.name, name);
        }
      });
      return `Successfully dropped queries: [${names.join(', ')}].`;
    }
    case 'showQuery': {
      const graph = graphFor(store, sessionGraph ?? soleGraph(store));
      // As GSQL shows them: an installed query under its `# installed v2` mark.
      const shown = (q: { source: string; installed: boolean }) =>
        q.installed ? `# installed v2\n${q.source}` : q.source;
      if (st.name === '*') return listQueries(store, graph.name).map(shown).join('\n');
      const q = listQueries(store, graph.name).find((x) => x.name === st.name);
      if (!q) throw new CatalogError(`The query ${st.name} does not exist in graph ${graph.name}.`);
      return shown(q);
    }
    case 'runQuery': {
      const graph = graphFor(store, sessionGraph ?? soleGraph(store));
      const q = readQuery(store, graph.name, st.name);
      if (!q) throw new CatalogError(`The query ${st.name} does not exist in graph ${graph.name}.`);
      const compiled = check(() => compiledQuery(store, graph, st.name)!);
      const args = st.args.map(constant);
      return JSON.stringify(runCompiled(store, compiled, positional(compiled, args), opts), null, 2);
    }
    case 'interpretQuery': {
      const graph = graphFor(store, st.def.graph ?? sessionGraph ?? soleGraph(store));
      const compiled = check(() =>
        compileQuery(store.catalog, graph, st.def, (n) => !!readQuery(store, graph.name, n)),
      );
      return JSON.stringify(runCompiled(store, compiled, positional(compiled, []), opts), null, 2);
    }
  }
}

function soleGraph(store: GraphStore): string | undefined {
  return store.catalog.graphs.size === 1 ? [...store.catalog.graphs.keys()][0] : undefined;
}

/** A compile step whose refusal becomes GSQL's "Semantic Check Fails". */
function check<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof QuerySemanticError || err instanceof GsqlSyntaxError) throw new CatalogError(err.message);
    throw err;
  }
}

/** A RUN QUERY argument: literals and lists of literals. */
function constant(e: Expr): unknown {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'un':
      return e.op === '-' ? -(constant(e.e) as number) : !constant(e.e);
    case 'list':
    case 'paren':
      return e.items.map(constant);
    case 'name':
      return e.name;
    default:
      throw new CatalogError(`The argument at line ${e.line}, column ${e.column} must be a literal value.`);
  }
}

function positional(q: CompiledQuery, args: unknown[]): Record<string, unknown> {
  if (args.length > q.params.length)
    throw new CatalogError(`The query ${q.def.name} takes ${q.params.length} parameters; ${args.length} were given.`);
  return Object.fromEntries(args.map((a, i) => [q.params[i]!.name, a]));
}

/** Parameters by name as a request gives them (URL text or JSON values), checked against their types. */
export function bindParams(view: GraphView, q: CompiledQuery, raw: Record<string, unknown>): unknown[] {
  const known = new Set(q.params.map((p) => p.name));
  for (const key of Object.keys(raw)) {
    const base = key.replace(/\.type$|\[\d+\](\.type)?$/, '');
    if (!known.has(base))
      throw new DataPlaneError('invalidParameter', `Unknown parameter '${key}' for query ${q.def.name}.`);
  }
  return q.params.map((p) => {
    const v = raw[p.name];
    if (v === undefined) return undefined;
    return convert(view, p.type, v, p.name, raw[`${p.name}.type`]);
  });
}

/**
 * REST++'s stricter reading of a JSON body: a vertex parameter (alone or in a collection) is an
 * object `{"id", "type"}` (`type` optional for `VERTEX<T>`, and then it must be T). A plain id
 * is read from the query string only.
 */
export function checkJsonVertexParams(q: CompiledQuery, body: Record<string, unknown>): void {
  for (const p of q.params) {
    const v = body[p.name];
    if (v === undefined) continue;
    const t = p.type.k === 'coll' ? p.type.elem : p.type;
    if (t.k !== 'base' || t.name !== 'VERTEX') continue;
    for (const x of p.type.k === 'coll' && Array.isArray(v) ? v : [v]) {
      if (typeof x !== 'object' || x === null || !('id' in x))
        throw new DataPlaneError(
          'invalidPayload',
          `'id' is not found in the VERTEX parameter '${p.name}': send it as {"id": …, "type": …}.`,
        );
      const type = (x as { type?: unknown }).type;
      if (t.vertexType !== undefined && type !== undefined && type !== t.vertexType)
        throw new DataPlaneError(
          'invalidPayload',
          `The vertex type '${String(type)}' of the parameter '${p.name}' is not its type ${t.vertexType}.`,
        );
    }
  }
}

function bad(name: string, why: string): never {
  throw new DataPlaneError('invalidParameter', `The value of parameter '${name}' is not valid: ${why}.`);
}

function convert(view: GraphView, t: TypeRef, v: unknown, name: string, vtype?: unknown): unknown {
  if (t.k === 'coll') {
    const items = Array.isArray(v) ? v : [v];
    const vtypes = Array.isArray(vtype) ? vtype : [];
    const out = items.map((x, i) => convert(view, t.elem, x, name, vtypes[i] ?? vtype));
    return t.name === 'SET' ? new Set(out) : out;
  }
  if (t.k !== 'base') return bad(name, 'parameters of this type are not supported');
  const one = Array.isArray(v) ? v[0] : v;
  switch (t.name) {
    case 'INT':
    case 'UINT': {
      const n = Number(one);
      if (!Number.isInteger(n) || (t.name === 'UINT' && n < 0)) bad(name, `'${String(one)}' is not an ${t.name}`);
      return n;
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const n = Number(one);
      if (typeof one === 'boolean' || one === '' || Number.isNaN(n)) bad(name, `'${String(one)}' is not a number`);
      // A FLOAT holds 4 bytes.
      return t.name === 'FLOAT' ? Math.fround(n) : n;
    }
    case 'BOOL': {
      // In a URL in any case: Python clients write `True`.
      const b = typeof one === 'string' ? one.toLowerCase() : one;
      if (b === true || b === 'true' || b === 1 || b === '1') return true;
      if (b === false || b === 'false' || b === 0 || b === '0') return false;
      return bad(name, `'${String(one)}' is not true or false`);
    }
    case 'STRING':
      return String(one);
    case 'DATETIME':
      return toEpoch(one);
    case 'VERTEX': {
      // RUN QUERY q(("id", "Type")): a vertex as a pair.
      const pair = Array.isArray(v) && v.length === 2 && !t.vertexType ? v : undefined;
      let id: unknown = pair ? pair[0] : one;
      let type: unknown = t.vertexType ?? (pair ? pair[1] : Array.isArray(vtype) ? vtype[0] : vtype);
      if (one !== null && typeof one === 'object') {
        const o = one as Record<string, unknown>;
        id = o.id;
        type = t.vertexType ?? o.type;
      }
      if (typeof type !== 'string') return bad(name, 'a VERTEX parameter needs its type (name.type)');
      const gid = view.find(type, String(id));
      if (gid < 0) return bad(name, `the vertex ${type} '${String(id)}' does not exist`);
      return view.vertex(gid);
    }
    default:
      return bad(name, `parameters of type ${t.name} are not supported`);
  }
}

/** The REST++ answer of a run: `{version, error, message, results}` without the version block (added by the route). */
export interface QueryOutcome {
  error: boolean;
  message: string;
  results: Record<string, unknown>[];
}

/** Runs a compiled query with arguments by name, to its end; writes commit in one transaction when it ends. */
export function runCompiled(
  store: GraphStore,
  q: CompiledQuery,
  raw: Record<string, unknown>,
  opts: RunOptions = {},
): QueryOutcome {
  return startRun(store, q, raw, opts, undefined) as QueryOutcome;
}

/**
 * Runs a compiled query as `runCompiled` does, letting other requests in between its
 * statements (Run.pause). Only in the store's query turn (running.ts): nothing else may change
 * the view meanwhile. `onRun` gets the run before it starts, for an abort to reach it.
 */
export async function runPausing(
  store: GraphStore,
  q: CompiledQuery,
  raw: Record<string, unknown>,
  opts: RunOptions,
  onRun: (run: Run) => void,
): Promise<QueryOutcome> {
  return startRun(store, q, raw, opts, onRun);
}

function startRun(
  store: GraphStore,
  q: CompiledQuery,
  raw: Record<string, unknown>,
  opts: RunOptions,
  onRun: ((run: Run) => void) | undefined,
): QueryOutcome | Promise<QueryOutcome> {
  const view = graphView(store);
  const args = bindParams(view, q, raw);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const run = new Run(
    store,
    view,
    performance.now() + timeoutMs - (opts.waitedMs ?? 0),
    timeoutMs,
    opts.outputLimit ?? 16 * 1024 * 1024,
    (name, callArgs, parent) => callQuery(store, q.graph, name, callArgs, parent),
    new QueryFiles(dataFolder(store)),
  );
  if (onRun) {
    run.allowPauses();
    onRun(run);
  }
  // What the run printed to files is on disk before its answer, as TigerGraph's is.
  const failed = (err: unknown): never => {
    run.files?.flush();
    // The view may hold attribute changes the store never got: build it again.
    dropView(store);
    if (err instanceof QueryTimeoutError) throw new DataPlaneError('queryTimeout', err.message);
    if (err instanceof QueryAbortedError) throw new DataPlaneError('queryAborted', err.message);
    if (err instanceof QueryRuntimeError) throw new DataPlaneError('queryRuntime', err.message);
    if (err instanceof RangeError) throw new DataPlaneError('queryRuntime', `The query failed: ${err.message}.`);
    throw err;
  };
  const done = (): QueryOutcome => {
    run.files?.flush();
    commit(store, view, run);
    return { error: false, message: '', results: run.results };
  };
  let returned: unknown;
  try {
    returned = q.invoke(run, args);
  } catch (err) {
    return failed(err);
  }
  return returned instanceof Promise ? returned.then(done, failed) : done();
}

function callQuery(store: GraphStore, graph: GraphDef, name: string, args: unknown[], parent: Run): unknown {
  const q = compiledQuery(store, graph, name);
  if (!q) throw new QueryRuntimeError(`The query ${name} does not exist.`);
  const child = new Run(
    store,
    parent.view,
    parent.deadline,
    parent.timeoutMs,
    parent.outputLimit,
    parent.callQuery,
    parent.files,
  );
  child.writes = parent.writes;
  return q.invoke(child, args);
}

/** Applies a run's writes to the store in one transaction; the view keeps them, taking in the rows touched. */
function commit(store: GraphStore, view: GraphView, run: Run): void {
  const { vertexAttrs, edgeAttrs, structural } = run.writes;
  if (vertexAttrs.size === 0 && edgeAttrs.size === 0 && structural.length === 0) return;
  // Rows others wrote while the run let them in; none when it never paused.
  const earlier = rowsSince(store, view);
  const touched: WrittenRows[] = [...(earlier ?? [])];
  try {
    store.write(() => {
      const setV = store.db.prepare(
        "UPDATE vertices SET attrs = json_set(attrs, '$.' || ?, json(?)) WHERE type_id = ? AND id = ?",
      );
      for (const [gid, attrs] of vertexAttrs) {
        const type = view.vertexTypes[view.typeOf[gid]!]!;
        for (const [name, v] of attrs) {
          const a = type.attributes.find((x) => x.name === name)!;
          setV.run(name, JSON.stringify(storedValue(a.type, v)), type.id, view.ids[gid]);
        }
      }
      const setE = store.db.prepare(
        "UPDATE edges SET attrs = json_set(attrs, '$.' || ?, json(?)) " +
          'WHERE type_id = ? AND from_type = ? AND from_id = ? AND to_type = ? AND to_id = ?',
      );
      for (const [eid, attrs] of edgeAttrs) {
        const et = view.edgeTypes[view.edgeType[eid]!]!;
        const from = view.edgeFrom[eid]!;
        const to = view.edgeTo[eid]!;
        const ft = view.vertexTypes[view.typeOf[from]!]!.id;
        const tt = view.vertexTypes[view.typeOf[to]!]!.id;
        for (const [name, v] of attrs) {
          const a = et.attributes.find((x) => x.name === name)!;
          const json = JSON.stringify(storedValue(a.type, v));
          setE.run(name, json, et.id, ft, view.ids[from], tt, view.ids[to]);
          if (!et.directed) setE.run(name, json, et.id, tt, view.ids[to], ft, view.ids[from]);
        }
      }
      for (const change of structural) touched.push(change(store));
    });
  } catch (err) {
    dropView(store);
    throw err;
  }
  // What inserts and deletes touched is taken into the view at the next query, as upserts are.
  if (earlier === undefined) dropView(store);
  else keepView(store, view, touched);
}

/** The timeout a request asks for: GSQL-TIMEOUT in ms, else the default. */
export function timeoutFrom(header: string | string[] | undefined): number {
  const v = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(v) && v > 0 ? Math.min(v, 3_600_000) : DEFAULT_TIMEOUT_MS;
}

export { compileQuery };

/** One finding of a query check, where it is in the text when known. */
export interface QueryCheckNote {
  message: string;
  line?: number;
  column?: number;
}

/**
 * Checks a query's text without keeping it: syntax, then the semantic checks of installing it
 * in `graphName` (or its own `FOR GRAPH`). Nothing here warns, so `warnings` is always empty.
 */
export function checkQueryText(
  store: GraphStore,
  graphName: string | undefined,
  text: string,
): { errors: QueryCheckNote[]; warnings: QueryCheckNote[] } {
  const refused = (err: unknown): QueryCheckNote => {
    if (err instanceof GsqlSyntaxError)
      return { message: `Syntax Error: ${err.message}`, line: err.line, column: err.column };
    if (err instanceof QuerySemanticError)
      return { message: `Semantic Check Fails: ${err.message}`, line: err.line, column: err.column };
    if (err instanceof CatalogError || err instanceof DataPlaneError) return { message: err.message };
    throw err;
  };
  let def: QueryDef;
  try {
    def = parseDef(text);
  } catch (err) {
    if (err instanceof Error && err.message === 'not a query definition')
      return { errors: [{ message: 'The text is not a CREATE QUERY statement.' }], warnings: [] };
    return { errors: [refused(err)], warnings: [] };
  }
  const name = def.graph ?? graphName ?? soleGraph(store);
  const graph = name === undefined ? undefined : store.catalog.graphs.get(name);
  if (!graph) return { errors: [{ message: `The graph ${name ?? ''} does not exist.` }], warnings: [] };
  try {
    compileQuery(store.catalog, graph, def, (n) => n === def.name || !!readQuery(store, graph.name, n));
  } catch (err) {
    return { errors: [refused(err)], warnings: [] };
  }
  return { errors: [], warnings: [] };
}
