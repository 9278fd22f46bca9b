import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { AppError } from '../domain/errors.js';
import type { ConsoleConfig } from '../schemas/console-config.js';
import type { ServiceIndex } from '../schemas/service-index.js';
import { ok } from './envelope.js';
import { CONSOLE_CSP, pageHeaders } from './page-headers.js';

/**
 * Where `npm run build` writes the console: dist/console at the package root (seen from src/http and dist/http
 * alike).
 */
export const defaultConsoleDir = fileURLToPath(new URL('../../dist/console', import.meta.url));

export const CONSOLE_PATH = '/console';

export interface ConsoleOptions {
  version: string;
  /** The built console; defaults to dist/console. */
  dir?: string;
  /** The data-plane gateway's base URL once it listens (it starts after the API). */
  gatewayUrl?: () => string | undefined;
}

// A gateway listening on every address has no one URL: a browser reaches it by the name it
// reached the API by.
const UNSPECIFIED = new Set(['0.0.0.0', '[::]']);

/** The gateway's URL for a browser that asked under `requestHost`. */
export function gatewayUrlFor(gatewayUrl: string | undefined, requestHost: string): string | null {
  if (!gatewayUrl) return null;
  const url = new URL(gatewayUrl);
  if (UNSPECIFIED.has(url.hostname)) url.hostname = requestHost;
  return url.origin;
}

// Hashed file names change with their content, so they may be kept for good; the page that
// names them must be asked for again every time, or a new build would never be seen.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

// The console holds an API key in sessionStorage: every answer under /console, its files and
// refusals included, sends the page's headers.
const consoleHeaders = pageHeaders(CONSOLE_CSP);

const notBuilt = () =>
  new AppError('not-found', {
    field: 'path',
    reason: 'the web console is not built in this installation: run `npm run build` (it writes dist/console)',
  });

/** A file of the built console, or undefined when the path names none (or tries to leave the folder). */
async function builtFile(dir: string, wanted: string): Promise<string | undefined> {
  const relative = path.posix.normalize(wanted).replace(/^\/+/, '');
  if (relative === '' || relative.startsWith('..') || relative.split('/').some((part) => part.startsWith('.')))
    return undefined;
  const info = await stat(path.join(dir, relative)).catch(() => undefined);
  return info?.isFile() ? relative : undefined;
}

/**
 * The web console at /console (static files built by Vite; any other path under it is a
 * page of the single-page app and gets index.html), and `GET /`, which sends a browser to
 * the console and tells any other client where the console, the reference and the OpenAPI
 * document are.
 */
export async function consoleRoutes(app: FastifyInstance, options: ConsoleOptions): Promise<void> {
  const dir = options.dir ?? defaultConsoleDir;
  await app.register(fastifyStatic, { serve: false });

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    reply.header('vary', 'Accept');
    // JSON is listed first, so it wins a tie (`*/*`, no Accept at all): only a client that
    // prefers HTML, as browsers do, is redirected.
    const preferred = new Negotiator(request).mediaType(['application/json', 'text/html']);
    if (preferred === 'text/html') return reply.redirect(CONSOLE_PATH, 302);
    const index: ServiceIndex = {
      name: 'acacia',
      version: options.version,
      links: { console: CONSOLE_PATH, docs: '/docs', openapi: '/openapi.json' },
    };
    return ok(request, index);
  });

  const sendPage = async (reply: FastifyReply) => {
    if (!(await builtFile(dir, 'index.html'))) throw notBuilt();
    return reply.header('cache-control', REVALIDATE).sendFile('index.html', dir, {
      cacheControl: false,
    });
  };

  const page = { schema: { hide: true }, onRequest: consoleHeaders };
  app.get(CONSOLE_PATH, page, (_request, reply) => sendPage(reply));

  // Not secret (the server prints it at start), so readable before signing in; never cached,
  // as a restart may move the gateway to another port.
  app.get(`${CONSOLE_PATH}/config.json`, page, async (request, reply) => {
    const config: ConsoleConfig = {
      version: options.version,
      gateway_url: gatewayUrlFor(options.gatewayUrl?.(), request.hostname),
    };
    return reply.header('cache-control', 'no-store').send(config);
  });

  app.get(`${CONSOLE_PATH}/*`, page, async (request: FastifyRequest, reply) => {
    const wanted = (request.params as { '*': string })['*'];
    const file = await builtFile(dir, wanted);
    if (file === 'index.html') return sendPage(reply);
    if (file) {
      const cache = file.startsWith('assets/') ? IMMUTABLE : REVALIDATE;
      return reply.header('cache-control', cache).sendFile(file, dir, { cacheControl: false });
    }
    // A missing asset is a 404 (a stale page asking for an old bundle must not get HTML);
    // a path without a file extension is a page of the app (a deep link or a reload).
    if (wanted.startsWith('assets/') || path.posix.extname(wanted) !== '') {
      if (!(await builtFile(dir, 'index.html'))) throw notBuilt();
      throw new AppError('not-found', { field: 'path', reason: `no file ${CONSOLE_PATH}/${wanted}` });
    }
    return sendPage(reply);
  });
}
