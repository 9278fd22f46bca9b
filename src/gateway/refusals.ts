import type { FastifyReply } from 'fastify';
import type { AppError } from '../domain/errors.js';
import { GatewayRefusal } from '../domain/gateway.js';
import { errorCodes } from '../listener/error-codes.js';
import { sendAnswer } from './answers.js';
import type { BackendResponse } from './workspace-backend.js';

/**
 * Gateway bodies are TigerGraph-shaped JSON, not the API envelope:
 * `{error: true, code, message, …info}` for a refusal, the workspace's own JSON otherwise.
 */
export function refusalAnswer(err: AppError, workspaceId?: string): BackendResponse {
  const headers: Record<string, string | string[]> = {};
  const info = err instanceof GatewayRefusal ? err.info : {};
  if (err instanceof GatewayRefusal && err.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(err.retryAfterSeconds);
  if (err.code === 'unauthenticated')
    headers['www-authenticate'] = [
      `Basic realm="workspace ${workspaceId ?? ''}", charset="UTF-8"`,
      `Bearer realm="workspace ${workspaceId ?? ''}"`,
    ];
  return { status: errorCodes[err.code].status, headers, body: { ...refusalBody(err), ...info } };
}

/** Answers a refusal through Fastify's reply. */
export const refuse = (reply: FastifyReply, err: AppError, workspaceId?: string): FastifyReply =>
  sendAnswer(reply, refusalAnswer(err, workspaceId));

/** A refusal in the gateway's own shape. */
export function refusalBody(refusal: AppError): Record<string, unknown> {
  return { error: true, code: refusal.code, message: refusalMessage(refusal) };
}

/** Each detail reads "<field> <reason>", or the reason alone. */
export const refusalMessage = (refusal: AppError): string =>
  refusal.details.map((d) => (d.field ? `${d.field} ${d.reason}` : d.reason)).join('; ');
