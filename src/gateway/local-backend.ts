import { Agent, errors, request } from 'undici';
import { DATA_PLANE_SECRET_HEADER, dataPlaneSecret } from '../dataplane/index.js';
import type { BackendResponse, WorkspaceBackend } from './workspace-backend.js';

export interface LocalBackendOptions {
  /** The data directory the local driver derives each process's secret from. */
  dataDir: string;
  /** How long the data plane may take to start answering, and to send each part of its answer (default 120 s). */
  timeoutMs?: number;
}

/**
 * Answers up to this size (announced by Content-Length) are read whole and sent in one write
 * with their length; larger ones, and those of unknown length, stream through.
 */
const WHOLE_ANSWER_BYTES = 64 * 1024;
/** Workspaces whose data-plane secret is remembered; past it the memory starts again. */
const SECRET_MEMORY = 10_000;

/** Response headers that describe the data plane's connection, not the answer. */
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'trailer']);

const refusal = (status: number, code: string, message: string): BackendResponse => ({
  status,
  ...(status === 503 ? { headers: { 'retry-after': '5' } } : {}),
  body: { error: true, code, message },
});

/**
 * The local driver's backend: passes each admitted request to the workspace's data-plane
 * process (its `endpoint`, host:port on loopback) with the process's secret, streaming the
 * body both ways. A process that does not answer is a 502, one that answers too slowly a
 * 504, a workspace with nothing serving it a 503, all in TigerGraph's error shape.
 */
export function localBackend(options: LocalBackendOptions): WorkspaceBackend {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const agent = new Agent({
    connect: { timeout: Math.min(timeoutMs, 10_000) },
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
        const res = await request(`http://${ws.endpoint}${req.path}${req.query ? `?${req.query}` : ''}`, {
          method: req.method as 'GET',
          headers: { ...req.headers, [DATA_PLANE_SECRET_HEADER]: secretOf(ws.id) },
          ...(req.body ? { body: req.body } : {}),
          dispatcher: agent,
        });
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
        const length = Number(res.headers['content-length'] ?? NaN);
        // A chunked stream costs a write per chunk and one to end it; a small answer is sent at once.
        const body = length <= WHOLE_ANSWER_BYTES ? Buffer.from(await res.body.arrayBuffer()) : res.body;
        return { status: res.statusCode, headers, body };
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
