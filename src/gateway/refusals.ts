import type { FastifyReply } from 'fastify';
import type { AppError } from '../domain/errors.js';
import { GatewayRefusal } from '../domain/gateway.js';
import { errorCodes } from '../listener/error-codes.js';

/**
 * Gateway bodies are TigerGraph-shaped JSON, not the API envelope:
 * `{error: true, code, message, …info}` for a refusal, the workspace's own JSON otherwise.
 */
export function refuse(reply: FastifyReply, err: AppError, workspaceId?: string): FastifyReply {
  const info = err instanceof GatewayRefusal ? err.info : {};
  if (err instanceof GatewayRefusal && err.retryAfterSeconds !== undefined)
    reply.header('retry-after', String(err.retryAfterSeconds));
  if (err.code === 'unauthenticated')
    reply.header('www-authenticate', [
      `Basic realm="workspace ${workspaceId ?? ''}", charset="UTF-8"`,
      `Bearer realm="workspace ${workspaceId ?? ''}"`,
    ]);
  return reply.code(errorCodes[err.code].status).send({ ...refusalBody(err), ...info });
}

/** A refusal in the gateway's own shape. */
export function refusalBody(refusal: AppError): Record<string, unknown> {
  return { error: true, code: refusal.code, message: refusalMessage(refusal) };
}

/** Each detail reads "<field> <reason>", or the reason alone. */
export const refusalMessage = (refusal: AppError): string =>
  refusal.details.map((d) => (d.field ? `${d.field} ${d.reason}` : d.reason)).join('; ');
