import net from 'node:net';
import { Agent, buildConnector, errors, type Dispatcher } from 'undici';
import { DATA_PLANE_SECRET_HEADER, dataPlaneSecret, socketFolder, socketPath } from '../dataplane/index.js';
import { forward } from './upstream-answer.js';
import type { BackendResponse, WorkspaceBackend } from './workspace-backend.js';

export interface LocalBackendOptions {
  /** The data directory the local driver derives each process's secret from. */
  dataDir: string;
  /** How long the data plane may take to start answering, and to send each part of its answer (default 120 s). */
  timeoutMs?: number;
}

/** Workspaces whose data-plane secret is remembered; past it the memory starts again. */
const SECRET_MEMORY = 10_000;

const refusal = (status: number, code: string, message: string): BackendResponse => ({
  status,
  ...(status === 503 ? { headers: { 'retry-after': '5' } } : {}),
  body: { error: true, code, message },
});

/** Endpoint hosts that name this host: only for those can a socket of this host stand in. */
const loopback = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Connects to a data-plane process through its Unix socket (local-socket.ts), named by the
 * port of its loopback endpoint; through the endpoint itself when there is no socket to
 * connect to (a path too long to bind, a process started without one), so whatever fails then
 * is the endpoint's own failure, as it would be without sockets.
 */
function localConnector(dataDir: string, timeoutMs: number): buildConnector.connector {
  const tcp = buildConnector({ timeout: timeoutMs });
  const folder = socketFolder(dataDir);
  return (options, callback) => {
    const file = loopback.has(options.hostname) ? socketPath(folder, Number(options.port)) : undefined;
    if (!file) return tcp(options, callback);
    const socket = net.connect(file);
    const viaTcp = () => {
      socket.destroy();
      tcp(options, callback);
    };
    socket.once('error', viaTcp);
    socket.once('connect', () => {
      socket.off('error', viaTcp);
      callback(null, socket);
    });
  };
}

/**
 * The local driver's backend: passes each admitted request to the workspace's data-plane
 * process (its `endpoint`, host:port on loopback, reached through the process's Unix socket
 * where it has one) with the process's secret, streaming the body both ways. A process that
 * does not answer is a 502, one that answers too slowly a 504, a workspace with nothing
 * serving it a 503, all in TigerGraph's error shape.
 */
export function localBackend(options: LocalBackendOptions): WorkspaceBackend {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const agent = new Agent({
    connect: localConnector(options.dataDir, Math.min(timeoutMs, 10_000)),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  // Derived from the installation key, which never changes while the process runs: an HMAC
  // per request was a visible part of a small request's cost.
  const secrets = new Map<string, string>();
  const secretOf = (workspaceId: string): string => {
    let secret = secrets.get(workspaceId);
    if (secret === undefined) {
      if (secrets.size >= SECRET_MEMORY) secrets.clear();
      secrets.set(workspaceId, (secret = dataPlaneSecret(options.dataDir, workspaceId)));
    }
    return secret;
  };
  return {
    async serve(req, ws) {
      if (!ws.endpoint)
        return refusal(503, 'unavailable', `workspace ${ws.id} has no data-plane process serving it; retry shortly`);
      try {
        return await forward(agent, {
          origin: `http://${ws.endpoint}`,
          path: req.query ? `${req.path}?${req.query}` : req.path,
          method: req.method as Dispatcher.HttpMethod,
          headers: { ...req.headers, [DATA_PLANE_SECRET_HEADER]: secretOf(ws.id) },
          body: req.body ?? null,
        });
      } catch (err) {
        if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError)
          return refusal(504, 'gateway-timeout', `workspace ${ws.id} did not answer within ${timeoutMs} ms`);
        if (err instanceof errors.RequestAbortedError) throw err;
        return refusal(
          502,
          'bad-gateway',
          `workspace ${ws.id}'s data plane is not answering (${(err as NodeJS.ErrnoException).code ?? 'error'}); ` +
            'it is restarted when its process is found gone',
        );
      }
    },
    close: () => agent.close(),
  };
}
