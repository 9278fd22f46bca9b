import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../domain/errors.js';
import { errorCodes } from './error-codes.js';

/** The largest request line plus headers accepted (Node's default, pinned so a runtime flag cannot raise it). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Longest path parameter the router accepts. Names and ids are at most 128 characters and a
 * percent-encoded character takes up to 12, so every valid value fits and schema validation
 * names the parameter when one is too long.
 */
export const MAX_PARAM_LENGTH = 1536;

/** The time a client may hold a connection for (ACACIA_*_TIMEOUT in src/config.ts), in ms. */
export interface ListenerTimeouts {
  /** Time a client may take to send a request's headers, then its whole request. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Time an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
}

/**
 * Server options shared by the API and the gateway, so a slow or abusive client holds a
 * connection only so long: headers within headersTimeout, the whole request within
 * requestTimeout, an idle keep-alive connection for keepAliveTimeout.
 */
export function listenerOptions(config: ListenerTimeouts): {
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // No traffic either way for this long means the client is gone, or stopped reading its
    // response; it is longer than any request we serve takes to answer.
    connectionTimeout: 2 * config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      // Node checks the two timeouts above on this period (30 s by default, which would
      // stretch a 10 s headers timeout to 40 s).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.headersTimeoutMs / 2))),
      maxHeaderSize: MAX_HEADER_BYTES,
      // A request without Host is refused by our own hook, so the refusal carries a body.
      requireHostHeader: false,
    },
  };
}

const parserErrors: Record<string, { field: string; reason: string }> = {
  HPE_INVALID_METHOD: { field: 'method', reason: 'is not an HTTP method' },
  HPE_INVALID_URL: { field: 'path', reason: 'is not a valid request target' },
  HPE_INVALID_VERSION: { field: 'version', reason: 'must be HTTP/1.0 or HTTP/1.1' },
  HPE_INVALID_HEADER_TOKEN: { field: 'headers', reason: 'contain a character not allowed in a header name or value' },
  HPE_INVALID_CONTENT_LENGTH: { field: 'Content-Length', reason: 'must be one non-negative integer' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { field: 'Content-Length', reason: 'must not be sent with Transfer-Encoding' },
  HPE_INVALID_TRANSFER_ENCODING: {
    field: 'Transfer-Encoding',
    reason: 'must end with chunked and must not come with Content-Length',
  },
  HPE_INVALID_CHUNK_SIZE: { field: 'body', reason: 'has a malformed chunk size' },
};

/** Why the HTTP parser or a timeout ended a request before any route saw it; undefined when nothing can be sent. */
export function describeClientError(err: { code?: string }, timeouts: ListenerTimeouts): AppError | undefined {
  switch (err.code) {
    case 'ECONNRESET':
      return undefined;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request-timeout', {
        field: 'request',
        reason:
          `was not received in time (headers within ${timeouts.headersTimeoutMs / 1000} ` +
          `s, the whole request within ${timeouts.requestTimeoutMs / 1000} s)`,
      });
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers-too-large', {
        field: 'headers',
        reason: `the request line and headers exceed ${MAX_HEADER_BYTES / 1024} KiB`,
      });
    default: {
      const known = err.code ? parserErrors[err.code] : undefined;
      return new AppError('invalid', known ?? { field: 'request', reason: 'is not a well-formed HTTP/1.1 request' });
    }
  }
}

/**
 * A Fastify clientErrorHandler: Node calls it for requests its parser refuses and for
 * timeouts, before any route or hook runs, so the response is written on the raw socket.
 * `render` gives the listener's own error body.
 */
export function clientErrorHandler(
  timeouts: ListenerTimeouts,
  render: (refusal: AppError, requestId: string) => unknown,
) {
  return function onClientError(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
    const refusal = socket.destroyed ? undefined : describeClientError(err, timeouts);
    // A response already under way (answered before its request was fully read) cannot be
    // followed by another on the same connection: then the connection is only closed.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (refusal && socket.writable && !inFlight?.headersSent) {
      const requestId = randomUUID();
      const body = JSON.stringify(render(refusal, requestId));
      const status = errorCodes[refusal.code].status;
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
      );
      this.log.debug({ err, reqId: requestId }, `client error ${status}`);
    }
    socket.destroy();
  };
}
