import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * `Expect: 100-continue` asks whether to send the body. Node answers 100 Continue before
 * any hook runs, so a client without a valid key was invited to upload its body before
 * being refused. With a 'checkContinue' listener Node leaves the answer to us: the request
 * goes to Fastify as any other, and 100 Continue is sent from preParsing, that is after the
 * onRequest hooks (authentication, the gateway's admission) have passed and just before the
 * body is read. A request refused by those hooks gets its final answer instead, with no 100.
 */
export function continueAfterChecks(app: FastifyInstance): void {
  const awaiting = new WeakSet<IncomingMessage>();
  app.server.on('checkContinue', (req: IncomingMessage, res) => {
    awaiting.add(req);
    app.server.emit('request', req, res);
  });
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (awaiting.delete(request.raw) && !reply.raw.headersSent) reply.raw.writeContinue();
    done(null, payload);
  });
}
