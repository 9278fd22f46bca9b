import type { ApiResponse } from './surface.js';

/** An error envelope (or an answer that is none), as an exception. */
export class AcaciaApiError extends Error {
  constructor(readonly response: ApiResponse<unknown>) {
    const details = response.body && 'ErrorDetails' in response.body ? response.body.ErrorDetails : [];
    super(`HTTP ${response.status}: ${details.map((d) => `${d.FieldName}: ${d.Reason}`).join('; ')}`);
    this.name = 'AcaciaApiError';
  }
}

/** Codes of a connection that failed or broke: the server is restarting, or not there. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/**
 * Whether an error is the connection's rather than the server's answer (refused, reset,
 * closed mid-answer), looking through the causes undici wraps it in.
 */
export function isConnectionLoss(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as never, i++) {
    if (typeof e.code !== 'string') continue;
    if (CONNECTION_CODES.has(e.code) || e.code.startsWith('UND_ERR_CONNECT')) return true;
  }
  return false;
}
