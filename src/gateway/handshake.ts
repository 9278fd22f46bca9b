import type { DbIdentity } from '../domain/db-credentials.js';
import { invalid } from '../domain/errors.js';
import type { Credentials } from '../domain/gateway.js';
import type { Services } from '../domain/services.js';
import type { WorkspaceToAdmit } from '../store/repositories/admission.js';
import { versionText } from '../dataplane/index.js';
import type { BackendRequest, BackendResponse } from './workspace-backend.js';

/** What a handshake endpoint is given. */
export interface HandshakeContext {
  method: string;
  /** The workspace path, without duplicate or trailing slashes. */
  path: string;
  /** Path parameters, decoded (`alias` of /gsql/v1/secrets/{alias}). */
  params: Record<string, string>;
  query: URLSearchParams;
  body: Buffer | undefined;
  ws: WorkspaceToAdmit;
  /** Who was admitted; undefined on the token routes, which take credentials from the body. */
  identity: DbIdentity | undefined;
  /** The credentials of the Authorization header, if any. */
  headerCredentials: Credentials | undefined;
  services: Services;
  /** Authenticates as `credentials` and checks the workspace is Active (the token routes). */
  authenticate(credentials: Credentials | undefined): Promise<DbIdentity>;
  /** The request as the workspace backend would get it, for parts the gateway passes on. */
  backendRequest: BackendRequest;
  forward(request: BackendRequest): Promise<BackendResponse>;
}

export type HandshakeHandler = (ctx: HandshakeContext) => Promise<BackendResponse>;

export interface HandshakeRoute {
  methods: readonly string[];
  /** Credentials may come in the body (a secret); admission then leaves authentication to the handler. */
  credentialsInBody?: boolean;
  /** Only these methods are the gateway's; others go to the workspace backend (GSQL endpoints). */
  passOtherMethods?: boolean;
  handler: HandshakeHandler;
}

export interface HandshakeMatch {
  route: HandshakeRoute;
  params: Record<string, string>;
  /** False: a handshake path with a method it does not take (405). */
  allowed: boolean;
}

/** `//a//b/` → `/a/b`: TigerGraph ignores duplicate and trailing slashes (pyTigerGraph calls `/restpp/echo/`). */
export function normalisePath(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed;
}

const GET = ['GET', 'HEAD'] as const;

export const json = (status: number, body: Record<string, unknown>): BackendResponse => ({ status, body });

const ping: HandshakeHandler = async () => json(200, { error: false, message: 'pong', results: {} });

const echo: HandshakeHandler = async () => json(200, { error: false, message: 'Hello GSQL' });

/** The component listing `getVersion()` and `getVer()` split, for the workspace's TigerGraph version. */
const restppVersion: HandshakeHandler = async (ctx) =>
  json(200, { error: false, message: versionText(ctx.ws.tg_version) });

const apiVersion: HandshakeHandler = async (ctx) =>
  json(200, {
    error: false,
    message: '',
    results: { tigergraph_version: ctx.ws.tg_version, workspace_id: ctx.ws.id },
  });

/**
 * The handshake routes the gateway serves for every driver, by normalised path. REST++ ones
 * also at the root, as TigerGraph 3.x serves them on its port 9000.
 */
export function handshakeRoutes(routes: {
  tokens: HandshakeRoute;
  requestToken: HandshakeRoute;
  secrets: HandshakeRoute;
  secret: HandshakeRoute;
  gsql: HandshakeRoute;
}): (method: string, path: string) => HandshakeMatch | undefined {
  const exact = new Map<string, HandshakeRoute>([
    ['/api/ping', { methods: GET, handler: ping }],
    ['/api/version', { methods: GET, handler: apiVersion }],
    ['/gsql/v1/tokens', routes.tokens],
    ['/gsql/v1/secrets', routes.secrets],
    ['/gsql/v1/statements', routes.gsql],
    ['/gsqlserver/gsql/file', routes.gsql],
  ]);
  for (const prefix of ['/restpp', '']) {
    exact.set(`${prefix}/echo`, { methods: [...GET, 'POST'], handler: echo });
    exact.set(`${prefix}/version`, { methods: GET, handler: restppVersion });
    exact.set(`${prefix}/requesttoken`, routes.requestToken);
  }
  return (method, path) => {
    let route = exact.get(path);
    let params: Record<string, string> = {};
    const alias = /^\/gsql\/v1\/secrets\/([^/]+)$/.exec(path);
    if (!route && alias) {
      route = routes.secret;
      params = { alias: decodeSegment(alias[1]!) };
    }
    if (!route) return undefined;
    const allowed = route.methods.includes(method);
    if (!allowed && route.passOtherMethods) return undefined;
    return { route, params, allowed };
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid('alias', 'is not valid percent-encoded text');
  }
}

/** The request's fields: its query parameters, overridden by those of a JSON object body. */
export function requestFields(ctx: Pick<HandshakeContext, 'query' | 'body'>): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.fromEntries(ctx.query);
  const text = ctx.body?.toString('utf8').trim();
  if (!text) return fields;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('body', 'must be a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalid('body', 'must be a JSON object');
  return { ...fields, ...(parsed as Record<string, unknown>) };
}

/** A field that must be a string when present. */
export function stringField(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(name, 'must be a string');
  return value;
}

/** A field holding one string or a list of strings. */
export function stringsField(fields: Record<string, unknown>, name: string): string[] | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw invalid(name, 'must be a string or a list of strings');
}

/** Headers a GSQL text answer carries, as the data plane's. */
export const TEXT_HEADERS = { 'content-type': 'text/plain; charset=utf-8' };
