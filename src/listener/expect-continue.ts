import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Requests that asked `Expect: 100-continue` and have not been invited yet. */
const awaiting = new WeakSet<IncomingMessage>();

/**
 * `Expect: 100-continue` asks whether to send the body. Node answers 100 Continue before
 * any hook runs, so a client without a valid key was invited to upload its body before
 * being refused. With a 'checkContinue' listener Node leaves the answer to us: the request
 * goes to the server's request handling as any other, and 100 Continue is sent by
 * `inviteBody`, that is after the checks (authentication, the gateway's admission) have
 * passed and just before the body is read (from preParsing, for Fastify's routes). A
 * request refused by those checks gets its final answer instead, with no 100.
 */
export function continueAfterChecks(app: FastifyInstance): void {
  app.server.on('checkContinue', (req: IncomingMessage, res) => {
    awaiting.add(req);
    app.server.emit('request', req, res);
  });
  app.addHook('preParsing', (request, reply, payload, done) => {
    inviteBody(request.raw, reply.raw);
    done(null, payload);
  });
}

/** Sends 100 Continue to a request that asked for it (once), unless it was answered already. */
export function inviteBody(req: IncomingMessage, res: ServerResponse): void {
  if (awaiting.delete(req) && !res.headersSent) res.writeContinue();
}
