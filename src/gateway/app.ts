import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '../domain/errors.js';
import type { Services } from '../domain/services.js';
import { appErrorOf } from '../listener/app-errors.js';
import { continueAfterChecks } from '../listener/expect-continue.js';
import { limitConnections } from '../listener/connection-limits.js';
import { clientErrorHandler, listenerOptions, MAX_PARAM_LENGTH } from '../listener/listener-limits.js';
import { requireHost } from '../listener/require-host.js';
import { lazyChildLogger } from '../logger.js';
import { credentialsFrom } from './credentials.js';
import { gsqlRoute } from './gsql-secrets.js';
import { handshakeRoutes, normalisePath, type HandshakeContext } from './handshake.js';
import { refusalBody, refuse } from './refusals.js';
import { admit, type Admitted } from './admission.js';
import { sendAnswer } from './answers.js';
import { forwardingLane } from './forwarding-lane.js';
import { announcedBody, LimitedBody, readWhole } from './request-body.js';
import { queryOf, routeRequest } from './routing.js';
import { secretRoute, secretsRoute } from './secret-endpoints.js';
import type { GatewaySettings } from './settings.js';
import { simulatedBackend } from './simulated-backend.js';
import { requestTokenRoute, tokensRoute } from './token-endpoints.js';
import { backendRequestOf, type WorkspaceBackend } from './workspace-backend.js';
import { observeAnswers, redactUrl, requestLog } from '../listener/request-log.js';

/** The settings the gateway reads (ACACIA_* in src/config.ts, which gives them all). */
export interface GatewayDeps {
  config: Readonly<GatewaySettings>;
  services: Services;
  logger: Logger;
  /** What serves admitted requests beyond the handshake; the simulated driver's by default. */
  backend?: WorkspaceBackend;
  /** Manual clock only: catches up with the shared time before each request. */
  syncClock?: () => Promise<void>;
  /** Sees every answer: its status and the time it took (the metrics). */
  answered?: (status: number, seconds: number) => void;
}

/**
 * The client's body stream, when it sends one: Fastify leaves a DELETE without Content-Type
 * unparsed, as pyTigerGraph sends its token deletions, so the raw request stands in then.
 */
function bodyStream(request: FastifyRequest): Readable | undefined {
  if (request.body instanceof Readable) return request.body.readableEnded ? undefined : request.body;
  return announcedBody(request.raw);
}

/** The data-plane listener (DESIGN §9), unstarted. */
export function buildGateway(deps: GatewayDeps): FastifyInstance {
  const { config, services } = deps;
  const backend = deps.backend ?? simulatedBackend;
  const findHandshake = handshakeRoutes({
    tokens: tokensRoute,
    requestToken: requestTokenRoute,
    secrets: secretsRoute,
    secret: secretRoute,
    gsql: gsqlRoute,
  });
  const gateway = services.gateway;
  // The shared logger redacts Authorization wherever it appears; URLs lose credential query values.
  const log = deps.logger.child(
    { listener: 'gateway' },
    {
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
    },
  );
  // Requests for a workspace's process take the forwarding lane; the rest, Fastify's route below.
  const lane = forwardingLane({
    gateway,
    backend,
    config,
    logger: log,
    findHandshake,
    syncClock: deps.syncClock,
    answered: deps.answered,
  });
  const options = listenerOptions(config);
  const app = Fastify({
    ...options,
    // Fastify applies its timeouts only to a server it makes itself.
    serverFactory: (routing) => {
      const server = createServer(options.http, (req, res) => lane(req, res) || void routing(req, res));
      server.keepAliveTimeout = options.keepAliveTimeout;
      server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout);
      return server;
    },
    loggerInstance: log as FastifyBaseLogger,
    childLoggerFactory: lazyChildLogger,
    logController: requestLog(),
    trustProxy: config.trustProxy ?? false,
    bodyLimit: config.bodyLimit,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: clientErrorHandler(config, (refusal) => refusalBody(refusal)),
    frameworkErrors: (error, _request, reply) => void refuse(reply, appErrorOf(error)),
  });
  limitConnections(app, config);
  if (deps.answered) observeAnswers(app, deps.answered);

  // Bodies stay streams: the handshake reads the few it needs, up to the gateway's limit.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  // Framework errors (body too large, bad URL) map as on the API; unknown ones become a logged 500.
  app.setErrorHandler((error, request, reply) => {
    const appError = appErrorOf(error);
    if (appError.code === 'internal') request.log.error({ err: error }, 'gateway request failed');
    return refuse(reply, appError, admitted.get(request)?.ws.id);
  });

  app.addHook('onRequest', async (request) => requireHost(request));
  const syncClock = deps.syncClock;
  if (syncClock) app.addHook('onRequest', async () => syncClock());

  continueAfterChecks(app);

  // What the lane leaves: the handshake, and the refusals of requests naming no workspace.
  const admitted = new WeakMap<FastifyRequest, Admitted>();
  app.all('/*', {
    onRequest: async (request, reply) => {
      const route = routeRequest(request.headers.host, request.url, config.baseDomain, config.gatewayDefaultWorkspace);
      if (!route) {
        return reply.code(404).send({
          error: true,
          code: 'not-found',
          message: "name the workspace with Host: <the workspace's proxy_host> or the path prefix /w/<workspace_id>/",
        });
      }
      try {
        const normalised = normalisePath(route.path);
        const handshake = findHandshake(request.method, normalised);
        admitted.set(
          request,
          await admit(gateway, config.bodyLimit, {
            method: request.method,
            route,
            normalised,
            handshake,
            ip: request.ip,
            authorization: request.headers.authorization,
            contentLength: request.headers['content-length'],
          }),
        );
      } catch (err) {
        if (err instanceof AppError) return refuse(reply, err, route.workspaceId);
        throw err;
      }
    },
    handler: async (request, reply) => {
      const entry = admitted.get(request)!;
      const { ws, path, limit } = entry;
      // The lane takes every request that is not the handshake's.
      const handshake = entry.handshake!;
      const stream = bodyStream(request);
      const buffered = await readWhole(stream && new LimitedBody(stream, limit));
      const query = queryOf(request.url);
      if (!handshake.allowed) {
        reply.header('allow', handshake.route.methods.join(', '));
        return refuse(
          reply,
          new AppError('method-not-allowed', {
            field: '',
            reason:
              `${request.method} is not served on ${normalisePath(path)}; ` +
              `use ${handshake.route.methods.join(', ')}`,
          }),
          ws.id,
        );
      }
      const ctx: HandshakeContext = {
        method: request.method,
        path: normalisePath(path),
        params: handshake.params,
        query: new URLSearchParams(query),
        body: buffered,
        ws,
        identity: entry.identity,
        headerCredentials: credentialsFrom(request.headers.authorization),
        services,
        authenticate: async (credentials) => {
          const identity = await gateway.authenticate(ws, request.ip, credentials);
          await gateway.ready(ws);
          entry.identity = identity;
          return identity;
        },
        get backendRequest() {
          const { method, headers } = request;
          return backendRequestOf({ method, path, query, headers, body: buffered }, entry.identity!);
        },
        forward: (req) => backend.serve(req, ws),
      };
      return sendAnswer(reply, await handshake.route.handler(ctx));
    },
  });

  return app;
}
