import {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';

/**
 * One log line per request, when it has been answered (Fastify's default writes two: one as
 * it comes in, one when done): method, URL, status and time taken, with the request id the
 * logger carries. No header is logged, so no key or password is, and credential values sent in
 * the query string (the gateway's `?secret=`, `?token=`) are replaced before the URL is.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    logCompleted(reply.log, request.method, request.url, reply.statusCode, reply.elapsedTime, error);
  }
}

/** The line of one answered request (ms: the time it took). */
export function logCompleted(
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  method: string,
  url: string,
  statusCode: number,
  ms: number,
  error?: Error | null,
): void {
  const line = { method, url: redactUrl(url), statusCode, responseTime: ms };
  if (error) log.error({ ...line, err: error }, 'request errored');
  else log.info(line, 'request completed');
}

const CREDENTIAL_PARAMETER = /^(?:secret|token|tokens|password)$/i;

/**
 * The URL with the values of credential query parameters replaced by `[redacted]`. A name is
 * judged as the routes read it, percent-decoded (`%73ecret` is `secret`), one parameter at a
 * time, so no spelling of a name gets its value into the log.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parameters = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const [name] = new URLSearchParams(part).keys();
      if (name === undefined || !CREDENTIAL_PARAMETER.test(name)) return part;
      const eq = part.indexOf('=');
      return `${eq < 0 ? part : part.slice(0, eq)}=[redacted]`;
    });
  return `${url.slice(0, q)}?${parameters.join('&')}`;
}

/** The log controller of the API and the gateway. */
export const requestLog = (): LogController => new OneLinePerRequest();

/** Tells `answered` of every answer: its status and the time it took (the gateway's metrics). */
export function observeAnswers(app: FastifyInstance, answered: (status: number, seconds: number) => void): void {
  app.addHook('onResponse', (_request, reply, done) => {
    answered(reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
