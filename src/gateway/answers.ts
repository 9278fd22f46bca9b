import type { ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { BackendResponse } from './workspace-backend.js';

/** An answer as bytes or a stream, with the content type its body implies when it names none. */
function encoded(answer: BackendResponse): {
  headers: Record<string, string | string[]>;
  payload: Buffer | string | Readable;
} {
  const headers = { ...answer.headers };
  const { body } = answer;
  const typed = (type: string) => (headers['content-type'] ??= type);
  if (body instanceof Readable) return { headers, payload: body };
  if (Buffer.isBuffer(body)) {
    typed('application/octet-stream');
    return { headers, payload: body };
  }
  if (typeof body === 'string') {
    typed('text/plain; charset=utf-8');
    return { headers, payload: body };
  }
  typed('application/json; charset=utf-8');
  return { headers, payload: JSON.stringify(body) };
}

/** Writes an answer on a response of node:http: a body at once with its length, a stream piped. */
export function writeAnswer(res: ServerResponse, answer: BackendResponse): void {
  const { headers, payload } = encoded(answer);
  if (payload instanceof Readable) {
    res.writeHead(answer.status, headers);
    // An error on either side ends both: the client sees a cut answer, never a hung one.
    pipeline(payload, res, () => undefined);
    return;
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(answer.status, headers).end(payload);
}

/** Sends an answer through Fastify's reply (the requests that take Fastify's route). */
export function sendAnswer(reply: FastifyReply, answer: BackendResponse): FastifyReply {
  const { headers, payload } = encoded(answer);
  return reply.code(answer.status).headers(headers).send(payload);
}
