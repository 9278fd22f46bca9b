import { CatalogError, graphFromStatement } from './catalog.js';
import { DataPlaneError, errorKinds, type ErrorKind } from './errors.js';
import { runGsql } from './gsql-runner.js';
import {
  addGlobalVertexTypes,
  createGlobalVertexTypes,
  dropVertexTypes,
  vertexStatementOf,
} from './global-vertex-types.js';
import { timeoutFrom } from './query/lifecycle.js';
import { exclusively } from './query/running.js';
import { route, sendJson, sendText, type RequestContext, type Router } from './http-server.js';
import { edgeTypeJson, graphListJson, graphSchemaJson, tuplesJson, vertexTypeJson } from './schema-json.js';

/** GSQL server JSON: `{error, message, …}` without REST++'s `version` block. */
function gsqlError(ctx: RequestContext, kind: ErrorKind, message: string): void {
  sendJson(ctx.res, errorKinds[kind].status, { error: true, message, code: errorKinds[kind].code });
}

async function statements(ctx: RequestContext, urlEncoded: boolean): Promise<void> {
  let text = (await ctx.body()).toString('utf8');
  // The 3.x endpoint takes the statements form-encoded (pyTigerGraph sends quote_plus(text)).
  if (urlEncoded) {
    try {
      text = decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return gsqlError(ctx, 'invalidPayload', 'The GSQL request body is not URL-encoded text.');
    }
  }
  const outputLimit = ctx.options.gsqlOutputLimit;
  const timeoutMs = timeoutFrom(ctx.req.headers['gsql-timeout']);
  // In the query turn: a schema change waits for a running query, and a query GSQL runs shares the view.
  const { output } = await exclusively(ctx.store, timeoutMs, () =>
    runGsql(ctx.store, text, { graph: ctx.query.graph, outputLimit, timeoutMs }),
  );
  sendText(ctx.res, 200, output);
}

/** `GET /gsql/v1/schema?graph=g[&type=T]` and its 3.x path. */
function schema(ctx: RequestContext): void {
  const { catalog } = ctx.store;
  const name = ctx.query.graph;
  if (name === undefined) return gsqlError(ctx, 'invalidParameter', 'The parameter graph is required.');
  const graph = catalog.graphs.get(name);
  if (!graph) return gsqlError(ctx, 'graphNotFound', `The graph ${name} does not exist.`);
  const type = ctx.query.type;
  if (type === undefined)
    return sendJson(ctx.res, 200, { error: false, message: '', results: graphSchemaJson(catalog, graph) });
  const vertex = catalog.vertexTypeIn(graph, type);
  if (vertex) return sendJson(ctx.res, 200, { error: false, message: '', results: vertexTypeJson(vertex) });
  const edge = catalog.edgeTypeIn(graph, type);
  if (edge) return sendJson(ctx.res, 200, { error: false, message: '', results: edgeTypeJson(edge) });
  gsqlError(ctx, 'invalidParameter', `The type ${type} is not a vertex or edge type of graph ${name}.`);
}

function graphSchema(ctx: RequestContext): void {
  const { catalog } = ctx.store;
  const graph = catalog.graphs.get(ctx.params.graph!);
  if (!graph) return gsqlError(ctx, 'graphNotFound', `The graph ${ctx.params.graph} does not exist.`);
  sendJson(ctx.res, 200, { error: false, message: '', results: graphSchemaJson(catalog, graph) });
}

/** `POST /gsql/v1/schema/graphs`: `?gsql=true` with `{"gsql": "CREATE GRAPH …"}`, or the JSON form. */
async function createGraph(ctx: RequestContext): Promise<void> {
  const b = await jsonBody(ctx);
  if (!b) return;
  if (ctx.query.gsql === 'true') {
    if (typeof b.gsql !== 'string')
      return gsqlError(ctx, 'invalidPayload', 'The body needs "gsql": a CREATE GRAPH statement.');
    if (!/^\s*create\s+graph\b/i.test(b.gsql))
      return gsqlError(ctx, 'invalidPayload', 'The "gsql" statement must be a CREATE GRAPH statement.');
    const gsql = b.gsql;
    const result = await exclusively(ctx.store, turnTimeout(ctx), () =>
      runGsql(ctx.store, gsql, { outputLimit: ctx.options.gsqlOutputLimit }),
    );
    const name = /^\s*create\s+graph\s+([A-Za-z_][A-Za-z0-9_]*)/i.exec(b.gsql)?.[1];
    if (!result.ok) return sendJson(ctx.res, 400, { error: true, message: result.output.split('\n__GSQL__')[0] });
    return sendJson(ctx.res, 200, { error: false, message: `Successfully created graph: [${name}].` });
  }
  const name = ctx.query.graphName;
  if (!name) return gsqlError(ctx, 'invalidParameter', 'The parameter graphName is required.');
  const list = (v: unknown) =>
    Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
  const vertexTypes = b.VertexTypes === undefined ? [] : list(b.VertexTypes);
  const edgeTypes = b.EdgeTypes === undefined ? [] : list(b.EdgeTypes);
  if (!vertexTypes || !edgeTypes)
    return gsqlError(ctx, 'invalidPayload', 'VertexTypes and EdgeTypes must be lists of type names.');
  await schemaChange(ctx, () => {
    ctx.store.createGraph(graphFromStatement(ctx.store.catalog, name, false, [...vertexTypes, ...edgeTypes]));
    return `Successfully created graph: [${name}].`;
  });
}

async function dropGraph(ctx: RequestContext): Promise<void> {
  const name = ctx.params.graph!;
  if (!ctx.store.catalog.graphs.has(name)) return gsqlError(ctx, 'graphNotFound', `The graph ${name} does not exist.`);
  await schemaChange(ctx, () => {
    ctx.store.dropGraph(name);
    return `Successfully dropped graph: ${name}.`;
  });
}

/** How long a schema change waits for a running query to finish: the request's GSQL-TIMEOUT. */
const turnTimeout = (ctx: RequestContext) => timeoutFrom(ctx.req.headers['gsql-timeout']);

/**
 * Runs a schema change for a JSON endpoint when no query runs, answering its refusal as
 * `{error: true, message}`.
 */
async function schemaChange(ctx: RequestContext, change: () => string): Promise<void> {
  try {
    sendJson(ctx.res, 200, { error: false, message: await exclusively(ctx.store, turnTimeout(ctx), change) });
  } catch (err) {
    if (err instanceof CatalogError) return gsqlError(ctx, 'invalidPayload', err.message);
    if (err instanceof DataPlaneError) return gsqlError(ctx, err.kind, err.message);
    throw err;
  }
}

/** A JSON request body as an object; answers the refusal and `undefined` when it is not one. */
async function jsonBody(ctx: RequestContext): Promise<Record<string, unknown> | undefined> {
  let body: unknown;
  try {
    body = JSON.parse((await ctx.body()).toString('utf8'));
  } catch {
    gsqlError(ctx, 'invalidJson', 'The request body is not valid JSON.');
    return undefined;
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  gsqlError(ctx, 'invalidPayload', 'The request body must be a JSON object.');
  return undefined;
}

const stringList = (v: unknown): string[] | undefined =>
  typeof v === 'string' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined;

/**
 * `POST /gsql/v1/schema/vertices`: `?gsql=true` with `{"gsql": [CREATE VERTEX …]}`, or
 * `{"createVertices": [vertex JSON]}` (global types), or `?graph=g` with `{"addVertices": [names]}`.
 */
async function postVertices(ctx: RequestContext): Promise<void> {
  const b = await jsonBody(ctx);
  if (!b) return;
  if (ctx.query.gsql === 'true') {
    const statements = stringList(b.gsql);
    if (!statements) return gsqlError(ctx, 'invalidPayload', 'The body needs "gsql": CREATE VERTEX statements.');
    return schemaChange(ctx, () => createGlobalVertexTypes(ctx.store, statements));
  }
  if (b.createVertices !== undefined) {
    const list = Array.isArray(b.createVertices) ? b.createVertices : [b.createVertices];
    return schemaChange(ctx, () => createGlobalVertexTypes(ctx.store, list.map(vertexStatementOf)));
  }
  if (b.addVertices !== undefined) {
    const names = stringList(b.addVertices);
    const graph = ctx.query.graph;
    if (!names) return gsqlError(ctx, 'invalidPayload', '"addVertices" must be a list of vertex type names.');
    if (graph === undefined) return gsqlError(ctx, 'invalidParameter', 'The parameter graph is required.');
    return schemaChange(ctx, () => addGlobalVertexTypes(ctx.store, graph, names));
  }
  gsqlError(ctx, 'invalidPayload', 'The body needs "gsql" (with ?gsql=true), "createVertices" or "addVertices".');
}

/** `DELETE /gsql/v1/schema/vertices?vertex=a,b[&graph=g]`. */
async function deleteVertices(ctx: RequestContext): Promise<void> {
  const names = (ctx.query.vertex ?? '').split(',').filter((n) => n !== '');
  if (names.length === 0) return gsqlError(ctx, 'invalidParameter', 'The parameter vertex is required.');
  await schemaChange(ctx, () => dropVertexTypes(ctx.store, names, ctx.query.graph));
}

/** The user-defined function files a client may read; queries here call no C++ functions. */
const UDF_FILES: Record<string, string> = {
  ExprFunctions: '// ExprFunctions.hpp: user-defined query functions. None are installed.\n',
  ExprUtil: '// ExprUtil.hpp: helpers for ExprFunctions. None are installed.\n',
};

/** `GET /gsql/v1/udt/files/{ExprFunctions|ExprUtil}` and the 3.x `?filename=` form. */
function udfFile(ctx: RequestContext, name: string | undefined): void {
  const text = name !== undefined && Object.hasOwn(UDF_FILES, name) ? UDF_FILES[name] : undefined;
  if (text === undefined)
    return gsqlError(ctx, 'invalidParameter', `The file ${name} is not one of ExprFunctions, ExprUtil.`);
  sendJson(ctx.res, 200, { error: false, message: '', results: text });
}

/** `GET /gsql/v1/udt/tuples?graph=g`: the global tuples and those of graph g. */
function tuples(ctx: RequestContext): void {
  const name = ctx.query.graph;
  if (name !== undefined && !ctx.store.catalog.graphs.has(name))
    return gsqlError(ctx, 'graphNotFound', `The graph ${name} does not exist.`);
  sendJson(ctx.res, 200, { error: false, message: '', results: tuplesJson(ctx.store.catalog, name) });
}

export function registerGsql(router: Router): void {
  route(router, 'POST', '/gsql/v1/statements', (ctx) => statements(ctx, false));
  route(router, 'POST', '/gsqlserver/gsql/file', (ctx) => statements(ctx, true));
  route(router, 'GET', '/gsql/v1/schema', schema);
  route(router, 'GET', '/gsqlserver/gsql/schema', schema);
  route(router, 'GET', '/gsql/v1/schema/graphs', (ctx) =>
    sendJson(ctx.res, 200, { graphs: graphListJson(ctx.store.catalog), error: false, message: '' }),
  );
  route(router, 'GET', '/gsql/v1/schema/graphs/:graph', graphSchema);
  route(router, 'POST', '/gsql/v1/schema/graphs', createGraph);
  route(router, 'DELETE', '/gsql/v1/schema/graphs/:graph', dropGraph);
  route(router, 'GET', '/gsql/v1/udt/tuples', tuples);
  route(router, 'GET', '/gsqlserver/gsql/udtlist', tuples);
  route(router, 'GET', '/gsql/v1/udt/files/:name', (ctx) => udfFile(ctx, ctx.params.name));
  route(router, 'GET', '/gsqlserver/gsql/userdefinedfunction', (ctx) => udfFile(ctx, ctx.query.filename));
  route(router, 'POST', '/gsql/v1/schema/vertices', postVertices);
  route(router, 'DELETE', '/gsql/v1/schema/vertices', deleteVertices);
  // The catalog is kept in the graph store's own transactions: there is no separate copy to recover.
  route(router, 'POST', '/gsql/v1/schema/recover', (ctx) =>
    sendJson(ctx.res, 200, { error: false, message: 'The catalog is consistent: nothing to recover.' }),
  );
}
