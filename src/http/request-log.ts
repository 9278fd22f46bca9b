import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, when it has been answered (Fastify's default writes two: one as
 * it comes in, one when done): method, URL, status and time taken, with the request id the
 * logger carries. No header is logged, so no key or password is, and credential values sent in
 * the query string (the gateway's `?secret=`, `?token=`) are replaced before the URL is.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** The URL with the values of credential query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:secret|token|tokens|password)=)[^&#]*/gi, '$1[redacted]');
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
