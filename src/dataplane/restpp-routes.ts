import { registerAdmin } from './admin-routes.js';
import { runBuiltin } from './builtins.js';
import {
  countEdges,
  deleteEdges,
  leaves,
  queryEdges,
  readEdgeQuery,
  targetTypeOf,
  viewsFrom,
  type EdgeSelection,
} from './edge-ops.js';
import { DataPlaneError, fail, type ErrorKind } from './errors.js';
import {
  restppVersion,
  route,
  sendJson,
  sendResults,
  streamResults,
  type RequestContext,
  type Router,
} from './http-server.js';
import { findPaths, readPathRequest } from './path-finding.js';
import { postDdl } from './loading/ddl-route.js';
import { parseFlag } from './query-params.js';
import { writingRows } from './query/graph-view.js';
import { queryEndpoints, registerQueryRoutes } from './query/routes.js';
import { storeStats } from './snapshot.js';
import { planUpsert } from './upsert-plan.js';
import { versionText } from './version-text.js';
import { writeUpsert } from './upsert-write.js';
import {
  countVertices,
  deleteVertex,
  deleteVertices,
  getVertex,
  readVertexQuery,
  urlVertexId,
  vertexBatches,
  vertexJson,
} from './vertex-ops.js';
import type { EdgeView, StoredVertexType } from './catalog.js';

/** REST++ is served under `/restpp` (TigerGraph 4, one port) and at the root (3.x port 9000 layout). */
const prefixes = ['/restpp', ''];

const p = (ctx: RequestContext, name: string): string => ctx.params[name]!;

async function jsonBody(ctx: RequestContext): Promise<unknown> {
  const text = (await ctx.body()).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return fail('invalidJson', 'The request body is not valid JSON.');
  }
}

function graphOf(ctx: RequestContext) {
  return ctx.store.graph(ctx.params.graph, ctx.path);
}

function vertexNotFound(type: StoredVertexType, id: string): never {
  throw new DataPlaneError(
    'vertexNotFound',
    `The input vertex id '${id}' is not a valid vertex id for vertex type = ${type.name}.`,
  );
}

const upsertRefusals = new Set<ErrorKind>(['invalidPayload', 'invalidVertexType', 'invalidEdgeType']);

async function upsert(ctx: RequestContext): Promise<void> {
  const graph = graphOf(ctx);
  const body = await jsonBody(ctx);
  const opts = {
    newVertexOnly: parseFlag(ctx.query.new_vertex_only, 'new_vertex_only'),
    updateVertexOnly: parseFlag(ctx.query.update_vertex_only, 'update_vertex_only'),
    vertexMustExist: parseFlag(ctx.query.vertex_must_exist, 'vertex_must_exist'),
  };
  // `ack=all|none` asks when to answer; every write here is committed before the answer either way.
  const ack = ctx.query.ack;
  if (ack !== undefined && ack !== 'all' && ack !== 'none')
    fail('invalidParameter', `The parameter 'ack' must be "all" or "none" (got '${ack}').`);
  let result;
  try {
    const plan = planUpsert(ctx.store, graph, body);
    // The graph's traversal view takes the rows in rather than being built again.
    result = writingRows(ctx.store, (touched) => {
      touched?.rows(plan);
      return writeUpsert(ctx.store, plan, opts);
    });
  } catch (err) {
    // TigerGraph 4.x answers every refused payload with one code, which pyTigerGraph's callers test for.
    if (err instanceof DataPlaneError && upsertRefusals.has(err.kind))
      throw new DataPlaneError('upsertRejected', err.message);
    throw err;
  }
  sendResults(ctx, [result]);
}

async function listVertices(ctx: RequestContext): Promise<void> {
  const { store } = ctx;
  const type = store.vertexType(graphOf(ctx), p(ctx, 'vtype'));
  const q = readVertexQuery(type, ctx.query);
  if (parseFlag(ctx.query.count_only, 'count_only'))
    return sendResults(ctx, [{ v_type: type.name, count: countVertices(store, type, q.conditions) }]);
  await streamResults(ctx, vertexBatches(store, type, q));
}

function removeVertices(ctx: RequestContext): void {
  const type = ctx.store.vertexType(graphOf(ctx), p(ctx, 'vtype'));
  const q = readVertexQuery(type, { ...ctx.query, select: undefined });
  const deleted = writingRows(ctx.store, (touched) => deleteVertices(ctx.store, type, q, touched));
  sendResults(ctx, { v_type: type.name, deleted_vertices: deleted });
}

function readVertex(ctx: RequestContext): void {
  const type = ctx.store.vertexType(graphOf(ctx), p(ctx, 'vtype'));
  const id = urlVertexId(type, p(ctx, 'vid'));
  const { select } = readVertexQuery(type, { select: ctx.query.select });
  const attrs = getVertex(ctx.store, type, id);
  if (attrs === undefined) vertexNotFound(type, id);
  sendResults(ctx, [JSON.parse(vertexJson(type, id, attrs, select))]);
}

function removeVertex(ctx: RequestContext): void {
  const type = ctx.store.vertexType(graphOf(ctx), p(ctx, 'vtype'));
  const id = urlVertexId(type, p(ctx, 'vid'));
  const deleted = writingRows(ctx.store, (touched) => deleteVertex(ctx.store, type, id, touched));
  sendResults(ctx, { v_type: type.name, deleted_vertices: deleted });
}

/** The edges a URL names, from its source vertex. */
function edgeSelection(ctx: RequestContext): EdgeSelection {
  const { store } = ctx;
  const graph = graphOf(ctx);
  const sourceType = store.vertexType(graph, p(ctx, 'stype'));
  const source = { type: sourceType, id: urlVertexId(sourceType, p(ctx, 'sid')) };
  const edgeName = ctx.params.etype;
  const wildcard = edgeName === '_' && !parseFlag(ctx.query.not_wildcard, 'not_wildcard');
  let views: EdgeView[];
  if (edgeName !== undefined && !wildcard) {
    const view =
      store.catalog.edgeViewIn(graph, edgeName) ??
      fail(
        'invalidPayload',
        `The input parameter edge_type = '${edgeName}' is not a valid edge type in graph '${graph.name}'.`,
      );
    // The one edge name, looked up: not every edge name of the graph, filtered.
    views = leaves(view, sourceType) ? [view] : [];
  } else views = viewsFrom(store, graph, sourceType);
  if (ctx.params.ttype === undefined) return { source, views };
  const targetType = targetTypeOf(store, graph, ctx.params.ttype);
  const targetId = ctx.params.tid === undefined ? undefined : urlVertexId(targetType, ctx.params.tid);
  return { source, views, target: { type: targetType, id: targetId } };
}

function listEdges(ctx: RequestContext): void {
  const sel = edgeSelection(ctx);
  if (getVertex(ctx.store, sel.source.type, sel.source.id) === undefined)
    throw new DataPlaneError(
      'vertexNotFound',
      `The from_vertex_id '${sel.source.id}' is not a valid vertex id for vertex type = ${sel.source.type.name}.`,
    );
  const q = readEdgeQuery(sel.views, ctx.query);
  if (parseFlag(ctx.query.count_only, 'count_only')) return sendResults(ctx, countEdges(ctx.store, sel, q));
  sendResults(
    ctx,
    queryEdges(ctx.store, sel, q).map((e) => e.out),
  );
}

function removeEdges(ctx: RequestContext): void {
  const sel = edgeSelection(ctx);
  const q = readEdgeQuery(sel.views, { ...ctx.query, select: undefined });
  sendResults(
    ctx,
    writingRows(ctx.store, (touched) => deleteEdges(ctx.store, sel, q, touched)),
  );
}

/** `POST /builtins/{graph}`: the statistics functions. */
async function builtins(ctx: RequestContext): Promise<void> {
  const graph = graphOf(ctx);
  const outcome = runBuiltin(ctx.store, graph, await jsonBody(ctx));
  if ('skipped' in outcome)
    // TigerGraph answers "nothing to report" as an error that is not a failure; pyTigerGraph reads it so.
    return sendJson(ctx.res, 200, {
      version: restppVersion(ctx.store),
      error: true,
      message: outcome.skipped,
      code: 'REST-30000',
    });
  sendResults(ctx, outcome.results);
}

/** `POST /shortestpath/{graph}` and `POST /allpaths/{graph}`. */
function paths(all: boolean) {
  return async (ctx: RequestContext): Promise<void> => {
    const graph = graphOf(ctx);
    const req = readPathRequest(ctx.store, graph, await jsonBody(ctx), all);
    sendResults(ctx, [findPaths(ctx.store, graph, req, all)]);
  };
}

/**
 * The endpoints this process serves, in the shape of `GET /endpoints`. `?builtin=`, `?dynamic=`
 * and `?static=` choose kinds, as getEndpoints() asks: installed queries are the dynamic ones;
 * there are no static ones.
 */
function endpoints(ctx: RequestContext): void {
  const [builtin, dynamic, fixed] = ['builtin', 'dynamic', 'static'].map((k) => parseFlag(ctx.query[k], k));
  const every = !builtin && !dynamic && !fixed;
  const list = [
    'GET /echo',
    'POST /echo',
    'GET /version',
    'GET /endpoints',
    'GET /endpoints/{graph_name}',
    'POST /graph/{graph_name}',
    'GET /graph/{graph_name}/vertices/{vertex_type}',
    'DELETE /graph/{graph_name}/vertices/{vertex_type}',
    'GET /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}',
    'DELETE /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}',
    'DELETE /graph/{graph_name}/delete_by_type/vertices/{vertex_type}',
    'GET /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}',
    'DELETE /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}',
    'GET /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}' +
      '/{edge_type}/{target_vertex_type}/{target_vertex_id}',
    'DELETE /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}' +
      '/{edge_type}/{target_vertex_type}/{target_vertex_id}',
    'POST /builtins/{graph_name}',
    'POST /shortestpath/{graph_name}',
    'POST /allpaths/{graph_name}',
    'GET /statistics/{graph_name}',
    'GET /rebuildnow/{graph_name}',
    'POST /ddl/{graph_name}',
  ];
  sendJson(ctx.res, 200, {
    ...(every || builtin ? Object.fromEntries(list.map((e) => [e, { parameters: {} }])) : {}),
    ...(every || dynamic ? queryEndpoints(ctx.store, ctx.params.graph) : {}),
  });
}

export function registerRestpp(router: Router): void {
  const echo = (ctx: RequestContext) => {
    ctx.req.resume();
    sendJson(ctx.res, 200, { error: false, message: 'Hello GSQL' });
  };
  const on = (
    method: 'GET' | 'POST' | 'DELETE' | ('GET' | 'POST')[],
    path: string,
    handler: (ctx: RequestContext) => unknown,
  ) => {
    for (const prefix of prefixes) route(router, method, prefix + path, handler);
  };
  on(['GET', 'POST'], '/echo', echo);
  on('GET', '/version', (ctx) => sendJson(ctx.res, 200, { error: false, message: versionText(ctx.options.tgVersion) }));
  on('GET', '/endpoints', endpoints);
  on('GET', '/endpoints/:graph', endpoints);
  on('POST', '/graph', upsert);
  on('POST', '/graph/:graph', upsert);
  on('GET', '/graph/:graph/vertices/:vtype', listVertices);
  on('DELETE', '/graph/:graph/vertices/:vtype', removeVertices);
  on('DELETE', '/graph/:graph/delete_by_type/vertices/:vtype', removeVertices);
  on('GET', '/graph/:graph/vertices/:vtype/:vid', readVertex);
  on('DELETE', '/graph/:graph/vertices/:vtype/:vid', removeVertex);
  for (const tail of ['', '/:etype', '/:etype/:ttype', '/:etype/:ttype/:tid']) {
    on('GET', `/graph/:graph/edges/:stype/:sid${tail}`, listEdges);
    on('DELETE', `/graph/:graph/edges/:stype/:sid${tail}`, removeEdges);
  }
  on('POST', '/builtins/:graph', builtins);
  on('POST', '/shortestpath/:graph', paths(false));
  on('POST', '/allpaths/:graph', paths(true));
  registerAdmin(router, prefixes);
  registerQueryRoutes(router);
  on('POST', '/ddl/:graph', postDdl);
  // Not TigerGraph's: the counts and sizes the control plane shows on the workspace record.
  route(router, 'GET', '/_dataplane/stats', (ctx) => sendJson(ctx.res, 200, storeStats(ctx.store)));
  route(router, 'GET', '/api/ping', (ctx) => sendJson(ctx.res, 200, { error: false, message: 'pong', results: {} }));
}
