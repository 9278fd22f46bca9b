import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import FindMyWay from 'find-my-way';
import { DataPlaneError } from './errors.js';
import type { GraphStore } from './graph-store.js';
import type { RequestFigures } from './request-figures.js';

/** Header that carries the secret shared by the gateway and one data-plane process. */
export const DATA_PLANE_SECRET_HEADER = 'x-acacia-data-plane-secret';

export interface ServerOptions {
  store: GraphStore;
  /** Every request must carry it in DATA_PLANE_SECRET_HEADER. */
  secret: string;
  /** TigerGraph version the process reports (`GET /restpp/version`). */
  tgVersion: string;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Largest body `POST /ddl` takes (written to a file as it arrives, not kept in memory), in bytes. */
  uploadLimit: number;
  /** The most a GSQL request's answer prints, in bytes. */
  gsqlOutputLimit: number;
  /** Where unexpected errors are reported (never request contents). */
  logError: (message: string, err: unknown) => void;
  /** Counts each answered request and its latency by route pattern. */
  figures?: RequestFigures;
}

export interface RequestContext {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  params: Record<string, string | undefined>;
  /** Query parameters; the first value wins when one is repeated. */
  query: Record<string, string | undefined>;
  /** Path and query as the client sent them, for error messages. */
  url: string;
  path: string;
  options: ServerOptions;
  store: GraphStore;
  /** The whole body, at most the process's body limit. */
  body(): Promise<Buffer>;
  /** Writes the body to a new file (mode 0600) as it arrives, at most `limit` bytes; none is kept in memory. */
  bodyToFile(file: string, limit: number): Promise<void>;
}

export type Handler = (ctx: RequestContext) => unknown;
export type Router = FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
type Method = 'GET' | 'POST' | 'DELETE' | 'PUT';

const unused = () => undefined;

/** What a route keeps in find-my-way's store: its handler, and its pattern for the request figures. */
interface Routed {
  handler: Handler;
  /** `GET /restpp/graph/{graph}`: the method and the pattern, parameters in braces; undefined: not counted. */
  endpoint: string | undefined;
}

/** Adds a route; the handler rides in find-my-way's route store, since requests are dispatched by `find`. */
export function route(
  router: Router,
  method: Method | Method[],
  path: string,
  handler: Handler,
  opts: { counted?: boolean } = {},
): void {
  const pattern = path.replace(/:(\w+)/g, '{$1}');
  for (const m of Array.isArray(method) ? method : [method]) {
    const endpoint = opts.counted === false ? undefined : `${m} ${pattern}`;
    router.on(m, path, unused, { handler, endpoint } satisfies Routed);
  }
}

/** REST++'s `version` block: the schema version moves with every schema change. */
export function restppVersion(store: GraphStore): Record<string, unknown> {
  return { edition: 'enterprise', api: 'v2', schema: store.catalog.version };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A REST++ success: `{version, error: false, message, results}`. */
export function sendResults(ctx: RequestContext, results: unknown, extra: Record<string, unknown> = {}): void {
  sendJson(ctx.res, 200, { version: restppVersion(ctx.store), error: false, message: '', results, ...extra });
}

/** A refusal in TigerGraph's shape: `{version, error: true, message, code}`. */
export function sendError(res: http.ServerResponse, store: GraphStore, err: DataPlaneError): void {
  if (err.status === 401) res.setHeader('www-authenticate', 'Basic realm="data plane"');
  sendJson(res, err.status, { version: restppVersion(store), error: true, message: err.message, code: err.code });
}

/** Writes a JSON document whose `results` array arrives in batches, waiting for the socket to drain. */
export async function streamResults(ctx: RequestContext, batches: Iterable<string[]>): Promise<void> {
  const { res } = ctx;
  // The first batch is read before the head goes out, so a bad query still gets an error status.
  const iterator = batches[Symbol.iterator]();
  let next = iterator.next();
  res.writeHead(200, { 'content-type': 'application/json' });
  const head = { version: restppVersion(ctx.store), error: false, message: '' };
  res.write(`${JSON.stringify(head).slice(0, -1)},"results":[`);
  let first = true;
  while (!next.done) {
    if (res.destroyed) return;
    const chunk = (first ? '' : ',') + next.value.join(',');
    first = false;
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    next = iterator.next();
  }
  res.end(']}');
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Hands the body to `take` chunk by chunk, failing with the 413 once it passes `limit` bytes. */
function receiveBody(req: http.IncomingMessage, limit: number, take: (chunk: Buffer) => void): Promise<void> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    req.resume();
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        try {
          take(chunk);
          return;
        } catch (err) {
          reject(err);
        }
      } else reject(tooLarge(limit));
      // Stop taking the body but go on reading it to its end, the connection kept: closed
      // while the client still sends, the client (the gateway) would see a broken pipe, not
      // the 413. The gateway sends no more than its own limit, the one this process has.
      req.off('data', onData);
      req.resume();
    };
    req.on('data', onData);
    req.on('end', () => resolve());
    req.on('error', reject);
  });
}

async function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await receiveBody(req, limit, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

async function bodyToFile(req: http.IncomingMessage, file: string, limit: number): Promise<void> {
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    // Written as each chunk arrives: a chunk is at most the socket's read size, so each write is short.
    await receiveBody(req, limit, (chunk) => fs.writeSync(fd, chunk));
  } finally {
    fs.closeSync(fd);
  }
}

const tooLarge = (limit: number) =>
  new DataPlaneError('bodyTooLarge', `The request body is larger than the limit of ${limit} bytes.`);

/** The data-plane HTTP server: shared-secret check, routing, TigerGraph-shaped errors. */
export function createServer(options: ServerOptions, register: (router: Router) => void): http.Server {
  const router: Router = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 2048 });
  register(router);
  const expected = digest(options.secret);

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const { store } = options;
    const url = req.url ?? '/';
    const presented = req.headers[DATA_PLANE_SECRET_HEADER];
    if (typeof presented !== 'string' || !timingSafeEqual(digest(presented), expected)) {
      req.resume();
      return sendError(
        res,
        store,
        new DataPlaneError('unauthorized', 'The request does not carry the data-plane secret.'),
      );
    }
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query: Record<string, string | undefined> = {};
    for (const [k, v] of new URLSearchParams(q < 0 ? '' : url.slice(q + 1))) if (!(k in query)) query[k] = v;
    const found = router.find(req.method as FindMyWay.HTTPMethod, path);
    if (!found) {
      req.resume();
      return sendError(
        res,
        store,
        new DataPlaneError(
          'endpointNotFound',
          `Endpoint is not found from url = '${path}', please use GET /endpoints to list all valid endpoints.`,
        ),
      );
    }
    // The schema may have been replaced by a restore from another connection since the last request.
    store.refresh();
    const ctx: RequestContext = {
      req,
      res,
      params: found.params,
      query,
      url,
      path,
      options,
      store,
      body: () => readBody(req, options.bodyLimit),
      bodyToFile: (file, limit) => bodyToFile(req, file, limit),
    };
    const routed = found.store as Routed;
    const { figures } = options;
    if (figures && routed.endpoint !== undefined) {
      const endpoint = routed.endpoint;
      const started = performance.now();
      res.once('finish', () => figures.record(endpoint, performance.now() - started));
    }
    await routed.handler(ctx);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        options.logError('response failed after it started', err);
        res.destroy();
        return;
      }
      if (err instanceof DataPlaneError) return sendError(res, options.store, err);
      options.logError('request failed', err);
      sendError(res, options.store, new DataPlaneError('internal', 'The data plane failed to process the request.'));
    });
  });
  server.requestTimeout = 300_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 65_000;
  return server;
}
