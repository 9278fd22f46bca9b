import { CatalogError } from '../catalog.js';
import { DataPlaneError, errorKinds, fail } from '../errors.js';
import type { GraphStore } from '../graph-store.js';
import { route, sendJson, sendResults, type RequestContext, type Router } from '../http-server.js';
import { printSignature, typeText } from './signature.js';
import {
  checkJsonVertexParams,
  checkQueryText,
  compiledQuery,
  listQueries,
  parseDef,
  readQuery,
  runPausing,
  runQueryStatement,
  timeoutFrom,
  compileQuery,
} from './lifecycle.js';
import { GsqlSyntaxError } from '../gsql-lexer.js';
import { QuerySemanticError, type CompiledQuery } from './compile.js';
import { detachedRuns, runDetached, timeText } from './detached.js';
import { listedRequests, newRequestId, runListed, stopRequests } from './running.js';
import { describedQueries, describeQueries, dropDescriptions, type DescriptionUpdate } from './descriptions.js';

/**
 * Query parameters as TigerGraph's URLs carry them: repeated keys for collections, `v.type` for
 * the type of an untyped vertex, `v[0]` / `v[0].type` for a set of untyped vertices.
 */
export function urlParams(url: string): Record<string, unknown> {
  const q = url.indexOf('?');
  const out: Record<string, unknown> = {};
  const indexed = new Map<string, { ids: string[]; types: string[] }>();
  for (const [key, value] of new URLSearchParams(q < 0 ? '' : url.slice(q + 1))) {
    const m = /^(.+)\[(\d+)\](\.type)?$/.exec(key);
    if (m) {
      let e = indexed.get(m[1]!);
      if (!e) indexed.set(m[1]!, (e = { ids: [], types: [] }));
      (m[3] ? e.types : e.ids)[Number(m[2])] = value;
      continue;
    }
    const held = out[key];
    out[key] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value];
  }
  for (const [name, { ids, types }] of indexed) out[name] = ids.map((id, i) => ({ id, type: types[i] }));
  return out;
}

/** `GET|POST /query/{graph}/{name}`: an installed query, parameters in the URL or a JSON body. */
async function runInstalled(ctx: RequestContext): Promise<void> {
  const { store } = ctx;
  const graph = store.graph(ctx.params.graph, ctx.path);
  const name = ctx.params.query!;
  const stored = readQuery(store, graph.name, name);
  if (!stored?.installed) {
    ctx.req.resume();
    return fail(
      'endpointNotFound',
      `Endpoint is not found from url = '${ctx.path}', please use GET /endpoints to list all valid endpoints.`,
    );
  }
  let params = urlParams(ctx.url);
  if (ctx.req.method === 'POST') {
    const text = (await ctx.body()).toString('utf8').trim();
    if (text) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return fail('invalidJson', 'The request body is not valid JSON.');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return fail('invalidPayload', 'The request body must be a JSON object of parameters.');
      const fromBody = jsonParams(body as Record<string, unknown>);
      checkJsonVertexParams(compiledQuery(store, graph, name)!, fromBody);
      params = { ...params, ...fromBody };
    }
  } else ctx.req.resume();
  // Compiled in its turn: a schema change or a DROP may have come first.
  await runRequest(ctx, graph.name, name, `/query/${graph.name}/${name}`, params, () => {
    const q = compiledQuery(store, store.graph(graph.name, ctx.path), name);
    if (!q) return fail('endpointNotFound', `The query ${name} was dropped before its turn came.`);
    return q;
  });
}

/**
 * Runs a query request in the store's query turn (running.ts), listed for `/showprocesslist` and
 * `/abortquery` while it waits and runs, and letting other requests in while it runs. With
 * `GSQL-ASYNC: true` it runs detached: the answer is its request id, at once.
 */
async function runRequest(
  ctx: RequestContext,
  graph: string,
  name: string,
  url: string,
  params: Record<string, unknown>,
  compile: () => CompiledQuery,
): Promise<void> {
  const { store } = ctx;
  const timeoutMs = timeoutFrom(ctx.req.headers['gsql-timeout']);
  const requestid = newRequestId();
  const request = { requestid, graph, url, started: Date.now(), timeoutMs };
  const results = runListed(store, request, async (onRun) => {
    // The time it waited for its turn counts against its timeout, as the process list shows it.
    const opts = { timeoutMs, waitedMs: Date.now() - request.started, outputLimit: ctx.options.gsqlOutputLimit };
    return (await runPausing(store, compile(), params, opts, onRun)).results;
  });
  if (String(ctx.req.headers['gsql-async']).toLowerCase() !== 'true') return sendResults(ctx, await results);
  runDetached(store, request, name, results, (err) => ctx.options.logError('detached query failed', err));
  sendResults(ctx, [], { request_id: requestid });
}

/** `GET /query_status?graph_name=g&requestid=id|all`: the detached runs. */
function queryStatus(ctx: RequestContext): void {
  const graph = ctx.query.graph_name ?? ctx.params.graph;
  const runs = detachedRuns(ctx.store, graph, ctx.query.requestid ?? 'all');
  sendResults(
    ctx,
    runs.map(({ results: _r, error: _e, ended, ...r }) => ({
      ...r,
      url: `/query/${r.graph}/${r.query}`,
      user: '',
      elapsedTime: (ended ?? Date.now()) - r.started,
    })),
  );
}

/** `GET /query_result?requestid=id`: what a detached run answered. */
function queryResult(ctx: RequestContext): void {
  const requestid = ctx.query.requestid;
  if (requestid === undefined) return fail('invalidParameter', 'The parameter requestid is required.');
  const [run] = detachedRuns(ctx.store, ctx.query.graph_name, requestid);
  if (run!.status === 'running') return fail('invalidParameter', `The request ${requestid} is still running.`);
  if (run!.error) throw new DataPlaneError(run!.error.kind, run!.error.message);
  sendResults(ctx, JSON.parse(run!.results!));
}

/** `GET /showprocesslist/{graph}`: the query requests that run or wait for their turn, oldest first. */
function processList(ctx: RequestContext): void {
  const graph = ctx.store.graph(ctx.params.graph, ctx.path);
  const now = Date.now();
  sendResults(
    ctx,
    listedRequests(ctx.store, graph.name).map((r) => ({
      requestid: r.requestid,
      startTime: timeText(r.started),
      expirationTime: timeText(r.started + r.timeoutMs),
      url: r.url,
      elapsedTime: now - r.started,
    })),
  );
}

/**
 * `GET /abortquery/{graph}?requestid=id[&requestid=…]|all[&url=/query/g/name]`: stops the named
 * requests (with neither parameter, or `all`, every one of the graph), answering those it stopped.
 */
function abortQuery(ctx: RequestContext): void {
  const graph = ctx.store.graph(ctx.params.graph, ctx.path);
  const search = new URL(ctx.url, 'http://localhost').searchParams;
  const ids = search.getAll('requestid');
  const urls = search.getAll('url').map((u) => `/${u.replace(/^\//, '')}`);
  const every = ids.includes('all') || (ids.length === 0 && urls.length === 0);
  const stopped = stopRequests(
    ctx.store,
    graph.name,
    (r) => every || ids.includes(r.requestid) || urls.includes(r.url),
  );
  sendResults(ctx, [{ aborted_queries: stopped.map((r) => ({ requestid: r.requestid, url: r.url })) }]);
}

/**
 * JSON body values: MAP parameters come as `{keylist, valuelist}`. As REST++ does, every string
 * in the body is percent-decoded (clients send `%` as `%25`); a malformed escape is refused.
 */
function jsonParams(body: Record<string, unknown>): Record<string, unknown> {
  const decode = (v: unknown, key: string): unknown => {
    if (typeof v === 'string') {
      try {
        return decodeURIComponent(v);
      } catch {
        return fail('invalidPayload', `The value of the parameter '${key}' has a malformed %-escape: write % as %25.`);
      }
    }
    if (Array.isArray(v)) return v.map((x) => decode(x, key));
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x, key)]));
    return v;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) out[k] = decode(v, k);
  return out;
}

/** `POST /gsql/v1/queries/interpret` (and the 3.x path): the query text in the body, parameters in the URL. */
async function interpret(ctx: RequestContext): Promise<void> {
  const { store } = ctx;
  const text = (await ctx.body()).toString('utf8');
  let def;
  try {
    def = parseDef(text);
  } catch (err) {
    if (err instanceof GsqlSyntaxError) return gsqlFailure(ctx, 'querySyntax', `Syntax Error: ${err.message}`);
    throw err;
  }
  const graphName = def.graph ?? ctx.query.graph ?? soleGraph(store);
  const graph = graphName === undefined ? undefined : store.catalog.graphs.get(graphName);
  if (!graph) return gsqlFailure(ctx, 'graphNotFound', `The graph ${graphName ?? ''} does not exist.`);
  // Against the schema as it is when called: before the request's turn, to refuse a bad text
  // at once, and again in its turn when the schema changed while it waited.
  const compileNow = () => {
    const now = store.graph(graph.name, ctx.path);
    return compileQuery(store.catalog, now, def, (n) => listQueries(store, now.name).some((x) => x.name === n));
  };
  const semanticMessage = (err: unknown) => {
    if (err instanceof QuerySemanticError) return `Semantic Check Fails: ${err.message}`;
    throw err;
  };
  let q: CompiledQuery;
  try {
    q = compileNow();
  } catch (err) {
    return gsqlFailure(ctx, 'querySyntax', semanticMessage(err));
  }
  const params = urlParams(ctx.url);
  delete params.graph;
  const compiledAt = store.catalog;
  const version = compiledAt.version;
  await runRequest(ctx, graph.name, def.name, ctx.path, params, () => {
    if (store.catalog === compiledAt && compiledAt.version === version) return q;
    try {
      return compileNow();
    } catch (err) {
      return fail('querySyntax', semanticMessage(err));
    }
  });
}

function soleGraph(store: GraphStore): string | undefined {
  return store.catalog.graphs.size === 1 ? [...store.catalog.graphs.keys()][0] : undefined;
}

function gsqlFailure(ctx: RequestContext, kind: keyof typeof errorKinds, message: string): void {
  sendJson(ctx.res, errorKinds[kind].status, { error: true, message, code: errorKinds[kind].code });
}

/** The parameters of a query as the endpoint list describes them. */
function parameterInfo(store: GraphStore, graph: string, name: string): Record<string, unknown> {
  const stored = listQueries(store, graph).find((q) => q.name === name);
  if (!stored) return {};
  const def = parseDef(stored.source);
  const out: Record<string, unknown> = {};
  for (const p of def.params) {
    const info: Record<string, unknown> = { type: typeText(p.type) };
    if (p.type.k === 'base' && p.type.vertexType) info.id_type = p.type.vertexType;
    if (p.default?.k === 'lit') info.default = String(p.default.v);
    out[p.name] = info;
  }
  return out;
}

/** Installed queries as `GET /endpoints/{graph}` lists them: `GET /query/{graph}/{name}` with parameters. */
export function queryEndpoints(store: GraphStore, graph: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const graphs = graph === undefined ? [...store.catalog.graphs.keys()] : [graph];
  for (const g of graphs)
    for (const q of listQueries(store, g))
      if (q.installed) {
        const parameters = parameterInfo(store, g, q.name);
        out[`GET /query/${g}/${q.name}`] = { parameters };
        out[`POST /query/${g}/${q.name}`] = { parameters };
      }
  return out;
}

/** A GSQL statement run for a JSON endpoint: `{error, message}` with what GSQL prints. */
function statementJson(ctx: RequestContext, graph: string | undefined, text: string): void {
  try {
    const stmt = (() => {
      const def = parseDef(text);
      return { kind: 'createQuery' as const, def: { ...def, orReplace: true } };
    })();
    const message = runQueryStatement(ctx.store, graph, stmt, {});
    sendJson(ctx.res, 200, { error: false, message });
  } catch (err) {
    if (err instanceof GsqlSyntaxError) return gsqlFailure(ctx, 'querySyntax', `Syntax Error: ${err.message}`);
    if (err instanceof CatalogError) return gsqlFailure(ctx, 'querySyntax', `Semantic Check Fails: ${err.message}`);
    throw err;
  }
}

function graphParam(ctx: RequestContext): string | undefined {
  const g = ctx.query.graph;
  if (g !== undefined && !ctx.store.catalog.graphs.has(g))
    throw new DataPlaneError('graphNotFound', `The graph ${g} does not exist.`);
  return g ?? soleGraph(ctx.store);
}

export function registerQueryRoutes(router: Router): void {
  for (const prefix of ['/restpp', '']) {
    route(router, ['GET', 'POST'], `${prefix}/query/:graph/:query`, runInstalled);
    route(router, 'GET', `${prefix}/query_status`, queryStatus);
    route(router, 'GET', `${prefix}/query_status/:graph`, queryStatus);
    route(router, 'GET', `${prefix}/query_result`, queryResult);
    route(router, 'GET', `${prefix}/showprocesslist/:graph`, processList);
    route(router, 'GET', `${prefix}/abortquery/:graph`, abortQuery);
  }
  route(router, 'POST', '/gsql/v1/queries/interpret', interpret);
  route(router, 'POST', '/gsqlserver/interpreted_query', interpret);
  route(router, 'GET', '/gsql/v1/queries', (ctx) => {
    const g = graphParam(ctx);
    const names = g === undefined ? [] : listQueries(ctx.store, g).map((q) => q.name);
    sendJson(ctx.res, 200, { error: false, message: '', results: names });
  });
  route(router, 'POST', '/gsql/v1/queries', async (ctx) => {
    const text = (await ctx.body()).toString('utf8');
    statementJson(ctx, graphParam(ctx), text);
  });
  route(router, 'GET', '/gsql/v1/queries/install', (ctx) => {
    const g = graphParam(ctx);
    const names = (ctx.query.queries ?? '').split(',').filter(Boolean);
    const all = names.length === 0 || names.includes('*') || names.includes('all');
    try {
      const message = runQueryStatement(ctx.store, g, { kind: 'installQuery', names, all, force: false });
      sendJson(ctx.res, 200, { error: false, message: `${message}\nSUCCESS` });
    } catch (err) {
      if (err instanceof CatalogError) return gsqlFailure(ctx, 'querySyntax', err.message);
      throw err;
    }
  });
  const info = (ctx: RequestContext) => {
    const g = graphParam(ctx);
    const name = ctx.query.query ?? ctx.query.queryName;
    const stored = g === undefined ? [] : listQueries(ctx.store, g);
    const pick = name === undefined ? stored : stored.filter((q) => q.name === name);
    if (name !== undefined && pick.length === 0)
      return gsqlFailure(ctx, 'invalidParameter', `The query ${name} does not exist in graph ${g ?? ''}.`);
    const describe = (q: (typeof stored)[number]) => ({
      name: q.name,
      graphName: q.graph,
      installed: q.installed,
      status: q.installed ? 'VALID' : 'DRAFT',
      code: q.source,
      output: printSignature(parseDef(q.source)),
      parameters: Object.entries(parameterInfo(ctx.store, q.graph, q.name)).map(([param, v]) => ({
        param,
        ...(v as object),
      })),
    });
    if (name !== undefined) {
      const d = describe(pick[0]!);
      return sendJson(ctx.res, 200, { error: false, message: '', ...d, input: d.parameters, results: [d] });
    }
    sendJson(ctx.res, 200, { error: false, message: '', results: pick.map(describe) });
  };
  // `{"code": "CREATE QUERY …"}`: the query checked, not kept.
  route(router, 'POST', '/gsql/v1/internal/check/query', async (ctx) => {
    let body: unknown;
    try {
      body = JSON.parse((await ctx.body()).toString('utf8'));
    } catch {
      return gsqlFailure(ctx, 'invalidJson', 'The request body is not valid JSON.');
    }
    const code = (body as { code?: unknown } | null)?.code;
    if (typeof code !== 'string') return gsqlFailure(ctx, 'invalidPayload', 'The body needs "code": the query text.');
    sendJson(ctx.res, 200, { error: false, message: '', ...checkQueryText(ctx.store, graphParam(ctx), code) });
  });
  // Query descriptions: `GET ?graph=g&query=a,b|all`, `PUT` `{queries: [{queryName, description,
  // parameters}]}`, `DELETE` `{queries: [names], queryParameters: ["q.p" | "q.*"]}`.
  const descriptionGraph = (ctx: RequestContext): string => {
    const g = graphParam(ctx);
    if (g === undefined) throw new DataPlaneError('invalidParameter', 'The parameter graph is required.');
    return g;
  };
  const descriptionBody = async (ctx: RequestContext): Promise<Record<string, unknown>> => {
    try {
      const body: unknown = JSON.parse((await ctx.body()).toString('utf8'));
      if (typeof body === 'object' && body !== null && Array.isArray((body as { queries?: unknown }).queries))
        return body as Record<string, unknown>;
    } catch {
      throw new DataPlaneError('invalidJson', 'The request body is not valid JSON.');
    }
    throw new DataPlaneError('invalidPayload', 'The body needs "queries": a list.');
  };
  const described = (ctx: RequestContext, change: () => unknown) => {
    try {
      change();
    } catch (err) {
      if (err instanceof CatalogError) return gsqlFailure(ctx, 'invalidParameter', err.message);
      throw err;
    }
  };
  for (const path of ['/gsql/v1/description', '/gsqlserver/gsql/description']) {
    route(router, 'GET', path, (ctx) => {
      const g = descriptionGraph(ctx);
      const names = (ctx.query.query ?? 'all').split(',').filter(Boolean);
      described(ctx, () =>
        sendJson(ctx.res, 200, {
          error: false,
          message: '',
          results: { queries: describedQueries(ctx.store, g, names) },
        }),
      );
    });
    route(router, 'PUT', path, async (ctx) => {
      const g = descriptionGraph(ctx);
      const body = await descriptionBody(ctx);
      const updates = body.queries as DescriptionUpdate[];
      if (!updates.every((u) => typeof u === 'object' && u !== null && typeof u.queryName === 'string'))
        return gsqlFailure(ctx, 'invalidPayload', 'Each of "queries" needs a "queryName".');
      described(ctx, () => {
        describeQueries(ctx.store, g, updates);
        sendJson(ctx.res, 200, { error: false, message: 'Successfully updated the descriptions.' });
      });
    });
    route(router, 'DELETE', path, async (ctx) => {
      const g = descriptionGraph(ctx);
      const body = await descriptionBody(ctx);
      const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
      described(ctx, () => {
        dropDescriptions(ctx.store, g, strings(body.queries), strings(body.queryParameters));
        sendJson(ctx.res, 200, { error: false, message: 'Successfully dropped the descriptions.' });
      });
    });
  }
  route(router, 'GET', '/gsql/v1/queries/info', info);
  route(router, 'POST', '/gsql/v1/queries/signature', info);
  route(router, 'GET', '/gsqlserver/gsql/queryinfo', info);
  route(router, 'GET', '/gsql/v1/queries/:name', (ctx) => {
    const g = graphParam(ctx);
    const q = g === undefined ? undefined : listQueries(ctx.store, g).find((x) => x.name === ctx.params.name);
    if (!q) return gsqlFailure(ctx, 'invalidParameter', `The query ${ctx.params.name} does not exist.`);
    sendJson(ctx.res, 200, {
      error: false,
      message: '',
      results: { name: q.name, code: q.source, installed: q.installed },
    });
  });
  route(router, 'DELETE', '/gsql/v1/queries/:name', (ctx) => dropQueries(ctx, [ctx.params.name!]));
  route(router, 'DELETE', '/gsql/v1/queries', (ctx) =>
    dropQueries(ctx, (ctx.query.query ?? '').split(',').filter(Boolean)),
  );
}

function dropQueries(ctx: RequestContext, names: string[]): void {
  try {
    const message = runQueryStatement(ctx.store, graphParam(ctx), {
      kind: 'dropQuery',
      names,
      all: names.length === 0,
    });
    sendJson(ctx.res, 200, { error: false, message });
  } catch (err) {
    if (err instanceof CatalogError) return gsqlFailure(ctx, 'invalidParameter', err.message);
    throw err;
  }
}
