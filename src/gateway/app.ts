import { Readable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { DbIdentity } from '../domain/db-credentials.js';
import { AppError } from '../domain/errors.js';
import type { Services } from '../domain/services.js';
import { appErrorOf } from '../listener/app-errors.js';
import { continueAfterChecks } from '../listener/expect-continue.js';
import type { WorkspaceToAdmit } from '../store/repositories/admission.js';
import { limitConnections, type ConnectionSettings } from '../listener/connection-limits.js';
import {
  clientErrorHandler,
  listenerOptions,
  MAX_PARAM_LENGTH,
  type ListenerTimeouts,
} from '../listener/listener-limits.js';
import { requireHost } from '../listener/require-host.js';
import { lazyChildLogger } from '../logger.js';
import { credentialsFrom } from './credentials.js';
import { gsqlRoute } from './gsql-secrets.js';
import { isUpload, UPLOAD_LIMIT } from '../dataplane/data-folder.js';
import { handshakeRoutes, normalisePath, type HandshakeContext, type HandshakeMatch } from './handshake.js';
import { refusalBody, refuse } from './refusals.js';
import { announcedTooLarge, bodyTooLarge, LimitedBody, readWhole } from './request-body.js';
import { queryOf, routeRequest } from './routing.js';
import { secretRoute, secretsRoute } from './secret-endpoints.js';
import { simulatedBackend } from './simulated-backend.js';
import { requestTokenRoute, tokensRoute } from './token-endpoints.js';
import {
  forwardedHeaders,
  type BackendRequest,
  type BackendResponse,
  type WorkspaceBackend,
} from './workspace-backend.js';
import { observeAnswers, redactUrl, requestLog } from '../listener/request-log.js';

/** The settings the gateway reads (ACACIA_* in src/config.ts, which gives them all). */
export interface GatewaySettings extends ListenerTimeouts, ConnectionSettings {
  /** The largest request body (bytes). */
  bodyLimit: number;
  /** The domain of workspaces' proxy_host names, by which a request names its workspace. */
  baseDomain: string;
  /** The workspace a request naming none goes to (a developer setting); unset, such requests are 404. */
  gatewayDefaultWorkspace?: string;
}

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

/** What admission found, kept from the onRequest hook for the handler. */
interface Admitted {
  ws: WorkspaceToAdmit;
  path: string;
  identity: DbIdentity | undefined;
  handshake: HandshakeMatch | undefined;
  /** The most bytes of body this request may send. */
  limit: number;
}

/**
 * The client's body stream, when it sends one: Fastify leaves a DELETE without Content-Type
 * unparsed, as pyTigerGraph sends its token deletions, so the raw request stands in then.
 */
function bodyStream(request: FastifyRequest): Readable | undefined {
  if (request.body instanceof Readable) return request.body.readableEnded ? undefined : request.body;
  const raw = request.raw;
  const announced = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
  return announced && !raw.readableEnded ? raw : undefined;
}

/**
 * The backend's answer, or the 413 when the body it was reading went past the limit: the
 * backend sees that only as its request failing, and would answer it as a 502.
 */
async function serveWithin(body: LimitedBody | undefined, serve: () => Promise<BackendResponse>) {
  let answer: BackendResponse;
  try {
    answer = await serve();
  } catch (err) {
    if (body?.exceeded) throw bodyTooLarge(body.limit);
    throw err;
  }
  if (!body?.exceeded) return answer;
  if (answer.body instanceof Readable) answer.body.destroy();
  throw bodyTooLarge(body.limit);
}

function send(reply: FastifyReply, answer: BackendResponse): FastifyReply {
  reply.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
  return reply.send(answer.body);
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
  const app = Fastify({
    ...listenerOptions(config),
    // The shared logger redacts Authorization wherever it appears; URLs lose credential query values.
    loggerInstance: deps.logger.child(
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
    ) as FastifyBaseLogger,
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

  // Bodies stay streams: the workspace gets them as they arrive (its process enforces its
  // limit); the handshake reads the few it needs, up to the gateway's limit.
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

  const gateway = services.gateway;
  // Admission runs before the body is read: a refused request is answered without reading
  // (or, with Expect: 100-continue, inviting) its body. The token routes take their
  // credential (a secret) from the body, so they are admitted by address only until then.
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
        const ws = await gateway.locate(route.workspaceId, request.ip);
        let identity: DbIdentity | undefined;
        // A method the route does not take is refused after the usual authentication.
        if (!(handshake?.allowed && handshake.route.credentialsInBody)) {
          identity = await gateway.authenticate(ws, request.ip, credentialsFrom(request.headers.authorization));
          await gateway.ready(ws);
        }
        // An upload to a loading job may be larger than other bodies: the workspace writes it to disk.
        const limit = isUpload(request.method, normalised) ? UPLOAD_LIMIT : config.bodyLimit;
        admitted.set(request, { ws, path: route.path, identity, handshake, limit });
        // Refused before it is read (or, with Expect: 100-continue, invited).
        if (announcedTooLarge(request.headers['content-length'], limit))
          return refuse(reply, bodyTooLarge(limit), ws.id);
      } catch (err) {
        if (err instanceof AppError) return refuse(reply, err, route.workspaceId);
        throw err;
      }
    },
    handler: async (request, reply) => {
      const entry = admitted.get(request)!;
      const { ws, path, handshake, limit } = entry;
      // The gateway's limit holds for every body, the ones it passes on as they arrive too: the
      // workspace never gets more than it accepts, and the client gets the 413 whoever reads.
      const stream = bodyStream(request);
      const limited = stream && new LimitedBody(stream, limit);
      const body = handshake ? await readWhole(limited) : limited;
      const query = queryOf(request.url);
      const backendRequest = ({ orgId, workspaceId, userId, username, via }: DbIdentity): BackendRequest => ({
        method: request.method,
        path,
        query,
        headers: forwardedHeaders(request.headers),
        body,
        identity: { orgId, workspaceId, userId, username, via },
      });
      if (!handshake)
        return send(reply, await serveWithin(limited, () => backend.serve(backendRequest(entry.identity!), ws)));
      const buffered = body as Buffer | undefined;
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
          return backendRequest(entry.identity!);
        },
        forward: (req) => backend.serve(req, ws),
      };
      return send(reply, await handshake.route.handler(ctx));
    },
  });

  return app;
}
