import { parseLifetime, type DbIdentity } from '../domain/db-credentials.js';
import { invalid } from '../domain/errors.js';
import { GatewayRefusal } from '../domain/gateway.js';
import { iso } from '../domain/time.js';
import {
  json,
  requestFields,
  stringField,
  stringsField,
  type HandshakeContext,
  type HandshakeRoute,
} from './handshake.js';
import type { BackendResponse } from './workspace-backend.js';

/**
 * Tokens, as TigerGraph serves them: `POST /gsql/v1/tokens` (4.x) and `/restpp/requesttoken`
 * (3.x: GET or POST to request, PUT to refresh, DELETE to delete). A `secret` field is the
 * credential when present (pyTigerGraph sends it beside whatever Basic header it holds);
 * otherwise the Authorization header is.
 */
async function caller(ctx: HandshakeContext, fields: Record<string, unknown>): Promise<DbIdentity> {
  const secret = stringField(fields, 'secret');
  return ctx.authenticate(secret ? { kind: 'secret', secret } : ctx.headerCredentials);
}

/**
 * `{error, message, results: {token}, expiration}`: what pyTigerGraph's getToken() reads
 * (expiration in epoch seconds).
 */
function tokenAnswer(token: string, expiresAt: number, message: string): BackendResponse {
  return json(200, {
    code: 'REST-0000',
    expiration: Math.floor(expiresAt / 1000),
    error: false,
    message: `${message}; it expires at ${iso(expiresAt)}.`,
    results: { token },
  });
}

async function issue(ctx: HandshakeContext, fields: Record<string, unknown>): Promise<BackendResponse> {
  const identity = await caller(ctx, fields);
  const lifetime = parseLifetime(fields.lifetime);
  const graph = stringField(fields, 'graph');
  const issued = await ctx.services.dbTokens.issue(identity, lifetime, graph || undefined);
  return tokenAnswer(issued.token, issued.expiresAt, `Generated a new token for user "${identity.username}"`);
}

async function refresh(ctx: HandshakeContext, fields: Record<string, unknown>): Promise<BackendResponse> {
  const identity = await caller(ctx, fields);
  const token = stringField(fields, 'token');
  if (!token) throw invalid('token', 'is required: the token to refresh');
  const lifetime = parseLifetime(fields.lifetime);
  const refreshed = await ctx.services.dbTokens.refresh(identity, token, lifetime);
  return tokenAnswer(refreshed.token, refreshed.expiresAt, `Refreshed the token of user "${identity.username}"`);
}

async function remove(ctx: HandshakeContext, fields: Record<string, unknown>): Promise<BackendResponse> {
  const tokens = [...(stringsField(fields, 'token') ?? []), ...(stringsField(fields, 'tokens') ?? [])];
  const identity = await caller(ctx, fields);
  if (tokens.length === 0) throw invalid('token', 'is required: the token (or tokens) to delete');
  const deleted = await ctx.services.dbTokens.revoke(identity, tokens);
  if (deleted === 0)
    throw new GatewayRefusal('not-found', `The token does not exist for user "${identity.username}".`, {
      // pyTigerGraph's deleteToken(skipNA=True) looks for this code.
      code: 'REST-3300',
    });
  return json(200, {
    code: 'REST-0000',
    error: false,
    message:
      `Deleted ${deleted} of ${tokens.length} token${tokens.length === 1 ? '' : 's'} ` +
      `of user "${identity.username}".`,
  });
}

export const requestTokenRoute: HandshakeRoute = {
  methods: ['GET', 'POST', 'PUT', 'DELETE'],
  credentialsInBody: true,
  async handler(ctx) {
    const fields = requestFields(ctx);
    if (ctx.method === 'PUT') return refresh(ctx, fields);
    if (ctx.method === 'DELETE') return remove(ctx, fields);
    return issue(ctx, fields);
  },
};

export const tokensRoute: HandshakeRoute = {
  methods: ['POST', 'DELETE'],
  credentialsInBody: true,
  async handler(ctx) {
    const fields = requestFields(ctx);
    return ctx.method === 'DELETE' ? remove(ctx, fields) : issue(ctx, fields);
  },
};
