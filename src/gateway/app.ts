import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { AppError } from '../domain/errors.js';
import { GatewayRefusal, type Credentials } from '../domain/gateway.js';
import type { Services } from '../domain/services.js';
import { toAppError } from '../http/envelope.js';
import { errorCodes } from '../http/error-codes.js';
import { capConnections, clientErrorHandler, listenerOptions, MAX_PARAM_LENGTH } from '../http/listener-limits.js';
import { requireHost } from '../http/request-context.js';
import { routeRequest } from './routing.js';
import { simulatedReply } from './simulated-workspace.js';
import { lazyChildLogger } from '../logger.js';

export interface GatewayDeps {
  config: Readonly<Config>;
  services: Services;
  logger: Logger;
  /** Manual clock only: catches up with the shared time before each request. */
  syncClock?: () => Promise<void>;
}

/** `Authorization: Basic base64(user:password)` → credentials; anything else → undefined. */
export function basicCredentials(header: string | undefined): Credentials | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 1 ? undefined : { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/**
 * Gateway bodies are TigerGraph-shaped JSON, not the API envelope:
 * `{error: true, code, message, …info}` for a refusal, the workspace's own JSON otherwise.
 */
function refuse(reply: FastifyReply, err: AppError, workspaceId?: string): FastifyReply {
  const info = err instanceof GatewayRefusal ? err.info : {};
  if (err instanceof GatewayRefusal && err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
  if (err.code === 'unauthenticated') reply.header('www-authenticate', `Basic realm="workspace ${workspaceId ?? ''}", charset="UTF-8"`);
  return reply.code(errorCodes[err.code].status).send({ ...refusalBody(err), ...info });
}

/** A refusal in the gateway's own shape; each detail reads "<field> <reason>", or the reason alone. */
function refusalBody(refusal: AppError): Record<string, unknown> {
  return { error: true, code: refusal.code, message: refusal.details.map((d) => (d.field ? `${d.field} ${d.reason}` : d.reason)).join('; ') };
}

/** The data-plane listener (DESIGN §9), unstarted. */
export function buildGateway(deps: GatewayDeps): FastifyInstance {
  const { config, services } = deps;
  const app = Fastify({
    ...listenerOptions(config),
    // The shared logger redacts Authorization wherever it appears.
    loggerInstance: deps.logger.child({ listener: 'gateway' }) as FastifyBaseLogger,
    childLoggerFactory: lazyChildLogger,
    trustProxy: config.trustProxy ?? false,
    bodyLimit: config.bodyLimit,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: clientErrorHandler(config, (refusal) => refusalBody(refusal)),
    frameworkErrors: (error, _request, reply) => void refuse(reply, toAppError(error)),
  });
  capConnections(app, config.maxConnections);

  // The workspace decides what a body means; the gateway only forwards, so it parses none.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));

  // Framework errors (body too large, bad URL) map as on the API; unknown ones become a logged 500.
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === 'internal') request.log.error({ err: error }, 'gateway request failed');
    return refuse(reply, appError);
  });

  app.addHook('onRequest', async (request) => requireHost(request));
  const syncClock = deps.syncClock;
  if (syncClock) app.addHook('onRequest', async () => syncClock());

  app.all('/*', async (request, reply) => {
    const route = routeRequest(request.headers.host, request.url, config.baseDomain);
    if (!route) {
      return reply.code(404).send({
        error: true,
        code: 'not-found',
        message: "name the workspace with Host: <the workspace's proxy_host> or the path prefix /w/<workspace_id>/",
      });
    }
    try {
      const ws = await services.gateway.admit(route.workspaceId, request.ip, basicCredentials(request.headers.authorization));
      const answer = simulatedReply(request.method, route.path, ws);
      return reply.code(answer.status).send(answer.body);
    } catch (err) {
      if (err instanceof AppError) return refuse(reply, err, route.workspaceId);
      throw err;
    }
  });

  return app;
}
