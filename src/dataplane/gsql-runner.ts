import type { Catalog } from './catalog.js';
import {
  CatalogError,
  checkDropEdge,
  checkDropVertex,
  edgeTypeFromDecl,
  graphFromStatement,
  tupleFromDecl,
  vertexTypeFromDecl,
} from './catalog.js';
import { DataPlaneError } from './errors.js';
import type { GraphStore } from './graph-store.js';
import { GsqlSyntaxError, parseGsql, type Statement } from './gsql-parser.js';
import { upsertEdgeStatement, upsertVertexStatement } from './gsql-dml.js';
import { dropAnyJobs, showAnyJobs } from './jobs.js';
import { createSchemaJob, runSchemaJob } from './schema-change.js';
import { runLoadingStatement } from './loading/job-statements.js';
import { edgeDdl, graphDdl, lsText, vertexDdl } from './schema-json.js';
import { runQueryStatement } from './query/lifecycle.js';

/** GSQL's client exit codes, printed on the last line of a failed request. */
const SYNTAX_ERROR = 211;
const RUNTIME_ERROR = 212;

export interface GsqlResult {
  /** The text GSQL prints, one line per message. */
  output: string;
  ok: boolean;
}

/** Why a statement is refused, in the words pyTigerGraph's `gsql()` looks for. */
function failureText(st: Statement, reason: string): string {
  switch (st.kind) {
    case 'createVertex':
      return `Semantic Check Fails: ${reason}\nFailed to create vertex types: [${st.decl.name}].`;
    case 'createEdge':
      return `Semantic Check Fails: ${reason}\nFailed to create edge types: [${st.decl.name}].`;
    case 'createGraph':
      return `Semantic Check Fails: ${reason}\nThe graph ${st.name} could not be created!`;
    default:
      return `Semantic Check Fails: ${reason}`;
  }
}

/** What `HELP` prints: the statements this shell runs, one line each, under GSQL's own heading. */
const HELP_TEXT = [
  'GSQL Help: Summary of TigerGraph GSQL Shell commands.',
  'Schema:',
  '  CREATE VERTEX | CREATE [UNDIRECTED|DIRECTED] EDGE | CREATE GRAPH g (types) | TYPEDEF TUPLE',
  '  DROP VERTEX | DROP EDGE | DROP GRAPH g | DROP ALL | CLEAR GRAPH STORE',
  '  CREATE [GLOBAL] SCHEMA_CHANGE JOB j { ADD | DROP | ALTER … } | RUN [GLOBAL] SCHEMA_CHANGE JOB j',
  'Session:',
  '  USE GRAPH g | USE GLOBAL | SET exit_on_error = TRUE|FALSE',
  'Catalog:',
  '  LS | SHOW GRAPH|VERTEX|EDGE name|* | SHOW JOB name|* | DROP JOB name|ALL',
  'Data:',
  '  UPSERT v VALUES (id, …) | UPSERT a -(e)-> b VALUES (from, to, …)',
  '  CREATE LOADING JOB j FOR GRAPH g { … } | RUN LOADING JOB j USING …',
  'Queries:',
  '  CREATE [OR REPLACE] QUERY q(…) { … } | INSTALL QUERY q|ALL | INTERPRET QUERY q',
  '  RUN QUERY q(…) | SHOW QUERY q|* | DROP QUERY q|ALL',
  '  HELP: this summary.',
].join('\n');

const unsupportedReason = (what: string) => `${what} is not supported by this data plane.`;

class Session {
  graph: string | undefined;
  /** `SET exit_on_error = FALSE`: a refused statement no longer stops the ones after it. */
  exitOnError = true;
  constructor(
    private readonly store: GraphStore,
    graph: string | undefined,
    private readonly queryOptions: { timeoutMs?: number; outputLimit?: number } = {},
  ) {
    this.graph = graph;
  }

  private get catalog(): Catalog {
    return this.store.catalog;
  }

  /** Runs one statement and returns what GSQL prints for it; throws CatalogError to stop. */
  run(st: Statement): string {
    const { store } = this;
    switch (st.kind) {
      case 'createVertex':
        store.createVertexType(vertexTypeFromDecl(this.catalog, st.decl));
        return `Successfully created vertex types: [${st.decl.name}].`;
      case 'createEdge':
        store.createEdgeType(edgeTypeFromDecl(this.catalog, st.decl));
        return `Successfully created edge types: [${st.decl.name}].`;
      case 'createGraph':
        store.createGraph(graphFromStatement(this.catalog, st.name, st.all, st.types));
        // As in GSQL's shell, the statements after it work in the new graph.
        this.graph = st.name;
        return `The graph ${st.name} is created.`;
      case 'useGraph':
        if (!this.catalog.graphs.has(st.name)) throw new CatalogError(`The graph ${st.name} does not exist.`);
        this.graph = st.name;
        return `Using graph '${st.name}'`;
      case 'useGlobal':
        this.graph = undefined;
        return 'Using global scope.';
      case 'dropVertex':
        checkDropVertex(this.catalog, st.names);
        store.dropVertexTypes(st.names);
        return `Successfully dropped vertex types: [${st.names.join(', ')}].`;
      case 'dropEdge':
        checkDropEdge(this.catalog, st.names);
        store.dropEdgeTypes(st.names);
        return `Successfully dropped edge types: [${st.names.join(', ')}].`;
      case 'dropGraph':
        if (!this.catalog.graphs.has(st.name)) throw new CatalogError(`The graph ${st.name} does not exist.`);
        store.dropGraph(st.name, st.cascade);
        if (this.graph === st.name) this.graph = undefined;
        return `The graph ${st.name} is dropped.`;
      case 'dropAll':
        store.dropAll();
        this.graph = undefined;
        return 'Everything is dropped.';
      case 'clearGraphStore':
        store.clearData();
        return 'Successfully cleared graph store.';
      case 'ls':
        return this.ls();
      case 'help':
        return HELP_TEXT;
      case 'show':
        return this.show(st.what, st.name);
      case 'set':
        return this.set(st.name, st.value);
      case 'createSchemaJob':
        return createSchemaJob(store, st.job, this.graph);
      case 'runSchemaJob':
        return runSchemaJob(store, st.name, st.global, this.graph);
      case 'dropJob':
        return dropAnyJobs(store, st.names, st.all, this.graph);
      case 'showJob':
        return showAnyJobs(store, st.name, this.graph);
      case 'upsertVertex':
        return upsertVertexStatement(store, this.graph, st.type, st.values);
      case 'upsertEdge':
        return upsertEdgeStatement(store, this.graph, st);
      case 'typedefTuple':
        store.createTuple(tupleFromDecl(this.catalog, st.name, st.fields, this.graph));
        return `Successfully created tuple types: [${st.name}].`;
      case 'unsupported':
        throw new CatalogError(unsupportedReason(st.what));
      case 'query':
        return runQueryStatement(store, this.graph, st.query, this.queryOptions);
      case 'createLoadingJob':
      case 'runLoadingJob':
        return runLoadingStatement(store, st, this.graph);
    }
  }

  private set(name: string, value: string): string {
    if (name !== 'exit_on_error')
      throw new CatalogError(`The session parameter ${name} is not supported; use exit_on_error.`);
    const v = value.toUpperCase();
    if (v !== 'TRUE' && v !== 'FALSE') throw new CatalogError('exit_on_error must be TRUE or FALSE.');
    this.exitOnError = v === 'TRUE';
    return '';
  }

  private ls(): string {
    const graph = this.graph === undefined ? undefined : this.catalog.graphs.get(this.graph);
    if (!graph) return lsText(this.catalog);
    const lines = [`---- Graph ${graph.name}`, 'Vertex Types:'];
    for (const v of graph.vertexTypes) lines.push(`  - ${vertexDdl(this.catalog.vertexTypes.get(v)!)}`);
    lines.push('Edge Types:');
    for (const e of graph.edgeTypes) lines.push(`  - ${edgeDdl(this.catalog.edgeTypes.get(e)!)}`);
    return lines.join('\n');
  }

  private show(what: 'GRAPH' | 'VERTEX' | 'EDGE', name: string): string {
    const c = this.catalog;
    const pick = <T>(map: Map<string, T>, label: string): T[] => {
      if (name === '*') return [...map.values()];
      const one = map.get(name);
      if (!one) throw new CatalogError(`The ${label} ${name} does not exist.`);
      return [one];
    };
    const lines =
      what === 'GRAPH'
        ? pick(c.graphs, 'graph').map((g) => `  - ${graphDdl(c, g)}`)
        : what === 'VERTEX'
          ? pick(c.vertexTypes, 'vertex type').map((v) => `  - ${vertexDdl(v)}`)
          : pick(c.edgeTypes, 'edge type').map((e) => `  - ${edgeDdl(e)}`);
    return lines.join('\n');
  }
}

/**
 * Runs a GSQL request: every statement is parsed first (a syntax error runs none), then each
 * runs in order and the first refusal stops the rest, earlier statements staying applied.
 * What it prints is at most `outputLimit` bytes: `LS` or `SHOW` print the whole schema each
 * time, so a request could otherwise print its size times the schema's. Past the limit the
 * statements left are not run, as after a refusal.
 */
export function runGsql(
  store: GraphStore,
  text: string,
  opts: { graph?: string; outputLimit?: number; timeoutMs?: number } = {},
): GsqlResult {
  let statements: Statement[];
  try {
    statements = parseGsql(text);
  } catch (err) {
    if (!(err instanceof GsqlSyntaxError)) throw err;
    return { ok: false, output: `Syntax Error: ${err.message}\n__GSQL__RETURN__CODE__,${SYNTAX_ERROR}` };
  }
  const session = new Session(store, opts.graph, { timeoutMs: opts.timeoutMs, outputLimit: opts.outputLimit });
  const limit = opts.outputLimit ?? Infinity;
  const lines: string[] = [];
  let printed = 0;
  let failed = false;
  const stop = (line: string): GsqlResult => {
    lines.push(line, `__GSQL__RETURN__CODE__,${RUNTIME_ERROR}`);
    return { ok: false, output: lines.join('\n') };
  };
  for (const st of statements) {
    let out: string;
    try {
      out = session.run(st);
    } catch (err) {
      if (!(err instanceof CatalogError || err instanceof DataPlaneError)) throw err;
      // A query's refusal is printed as the query engine words it, without the semantic-check frame.
      const refusal = err instanceof DataPlaneError && st.kind === 'query' ? err.message : failureText(st, err.message);
      if (session.exitOnError) return stop(refusal);
      failed = true;
      out = refusal;
    }
    if (!out) continue;
    printed += Buffer.byteLength(out) + 1;
    if (printed > limit)
      return stop(
        `Semantic Check Fails: the answer is larger than the limit of ${limit} bytes: the statement at line ` +
          `${st.line} ran but what it printed is left out, and the statements after it were not run.`,
      );
    lines.push(out);
  }
  if (failed) lines.push(`__GSQL__RETURN__CODE__,${RUNTIME_ERROR}`);
  if (failed) return { ok: false, output: lines.join('\n') };
  return { ok: true, output: lines.join('\n') };
}
