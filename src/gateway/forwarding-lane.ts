import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import type { Logger } from 'pino';
import type { GatewayService } from '../domain/gateway.js';
import { appErrorOf } from '../listener/app-errors.js';
import { inviteBody } from '../listener/expect-continue.js';
import { lacksHost } from '../listener/require-host.js';
import { logCompleted } from '../listener/request-log.js';
import { admit } from './admission.js';
import { writeAnswer } from './answers.js';
import { normalisePath, type HandshakeMatch } from './handshake.js';
import { refusalAnswer } from './refusals.js';
import { announcedBody, bodyTooLarge, LimitedBody } from './request-body.js';
import { queryOf, routeRequest, type GatewayRoute } from './routing.js';
import type { GatewaySettings } from './settings.js';
import { backendRequestOf, type BackendResponse, type WorkspaceBackend } from './workspace-backend.js';

export interface LaneDeps {
  gateway: GatewayService;
  backend: WorkspaceBackend;
  config: Pick<GatewaySettings, 'bodyLimit' | 'baseDomain' | 'gatewayDefaultWorkspace' | 'trustProxy'>;
  logger: Logger;
  findHandshake: (method: string, path: string) => HandshakeMatch | undefined;
  syncClock?: (() => Promise<void>) | undefined;
  answered?: ((status: number, seconds: number) => void) | undefined;
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

/**
 * The requests the gateway passes on to a workspace, served on node:http itself. Per request
 * Fastify's lifecycle (request and reply objects, hook runners, its send) cost the gateway
 * about as much CPU as admission and forwarding together, for a route that is one wildcard.
 * Same admission, refusals, metrics and log line as Fastify's route, which keeps what the
 * gateway answers itself: the handshake, a request naming no workspace, one without Host.
 * The handler returns false for those, and does not touch them.
 */
export function forwardingLane(deps: LaneDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { gateway, backend, config, logger, syncClock, answered } = deps;
  const trusted = config.trustProxy?.length ? proxyAddr.compile(config.trustProxy) : undefined;
  // The address Fastify's request.ip gives, with the same trustProxy.
  const clientAddress = (req: IncomingMessage) =>
    trusted ? proxyAddr(req, trusted) : (req.socket.remoteAddress ?? '');

  async function forward(req: IncomingMessage, res: ServerResponse, route: GatewayRoute, normalised: string) {
    const method = req.method!;
    try {
      await syncClock?.();
      const { ws, identity, limit } = await admit(gateway, config.bodyLimit, {
        method,
        route,
        normalised,
        handshake: undefined,
        ip: clientAddress(req),
        authorization: req.headers.authorization,
        contentLength: req.headers['content-length'],
      });
      const stream = announcedBody(req);
      if (stream) inviteBody(req, res);
      // The gateway's limit holds for every body passed on as it arrives: the workspace never
      // gets more than it accepts, and the client gets the 413 whoever reads.
      const body = stream && new LimitedBody(stream, limit);
      const request = backendRequestOf(
        { method, path: route.path, query: queryOf(req.url!), headers: req.headers, body },
        identity!,
      );
      writeAnswer(res, await serveWithin(body, () => backend.serve(request, ws)));
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const refusal = appErrorOf(err);
      if (refusal.code === 'internal') logger.error({ err }, 'gateway request failed');
      writeAnswer(res, refusalAnswer(refusal, route.workspaceId));
    }
  }

  /** The route of a request the lane takes; undefined for the rest. */
  const laneRoute = (req: IncomingMessage) => {
    if (lacksHost(req)) return undefined;
    try {
      const route = routeRequest(req.headers.host, req.url!, config.baseDomain, config.gatewayDefaultWorkspace);
      if (!route) return undefined;
      const normalised = normalisePath(route.path);
      return deps.findHandshake(req.method!, normalised) ? undefined : { route, normalised };
    } catch {
      // A name in the path that is not valid percent-encoding: Fastify's route refuses it.
      return undefined;
    }
  };

  return (req, res) => {
    const taken = laneRoute(req);
    if (!taken) return false;
    const { route, normalised } = taken;
    const started = performance.now();
    res.once('finish', () => {
      const ms = performance.now() - started;
      answered?.(res.statusCode, ms / 1000);
      if (logger.isLevelEnabled('info')) logCompleted(logger, req.method!, req.url!, res.statusCode, ms);
    });
    // forward answers its own failures; one in writing that answer must not end the process.
    forward(req, res, route, normalised).catch((err: unknown) => {
      logger.error({ err }, 'gateway answer failed');
      res.destroy();
    });
    return true;
  };
}
