import { CatalogError, graphFromStatement } from './catalog.js';
import { DataPlaneError, errorKinds, type ErrorKind } from './errors.js';
import { runGsql } from './gsql-runner.js';
import { timeoutFrom } from './query/lifecycle.js';
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
  sendText(ctx.res, 200, runGsql(ctx.store, text, { graph: ctx.query.graph, outputLimit, timeoutMs }).output);
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
  let body: unknown;
  try {
    body = JSON.parse((await ctx.body()).toString('utf8'));
  } catch {
    return gsqlError(ctx, 'invalidJson', 'The request body is not valid JSON.');
  }
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (ctx.query.gsql === 'true') {
    if (typeof b.gsql !== 'string')
      return gsqlError(ctx, 'invalidPayload', 'The body needs "gsql": a CREATE GRAPH statement.');
    if (!/^\s*create\s+graph\b/i.test(b.gsql))
      return gsqlError(ctx, 'invalidPayload', 'The "gsql" statement must be a CREATE GRAPH statement.');
    const result = runGsql(ctx.store, b.gsql, { outputLimit: ctx.options.gsqlOutputLimit });
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
  schemaChange(ctx, () => {
    ctx.store.createGraph(graphFromStatement(ctx.store.catalog, name, false, [...vertexTypes, ...edgeTypes]));
    return `Successfully created graph: [${name}].`;
  });
}

function dropGraph(ctx: RequestContext): void {
  const name = ctx.params.graph!;
  if (!ctx.store.catalog.graphs.has(name)) return gsqlError(ctx, 'graphNotFound', `The graph ${name} does not exist.`);
  schemaChange(ctx, () => {
    ctx.store.dropGraph(name);
    return `Successfully dropped graph: ${name}.`;
  });
}

/** Runs a schema change for a JSON endpoint, answering its refusal as `{error: true, message}`. */
function schemaChange(ctx: RequestContext, change: () => string): void {
  try {
    sendJson(ctx.res, 200, { error: false, message: change() });
  } catch (err) {
    if (err instanceof CatalogError) return gsqlError(ctx, 'invalidPayload', err.message);
    if (err instanceof DataPlaneError) return gsqlError(ctx, err.kind, err.message);
    throw err;
  }
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
}
