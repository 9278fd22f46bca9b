import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { authorize } from '../../domain/permissions.js';
import { graphRequestKind, type GraphBackend, type GraphDataAnswer } from '../../domain/graph-requests.js';
import type { Services } from '../../domain/services.js';
import { GRAPH_RUN_ACTION } from '../../schemas/access.js';
import type { GraphAnswer } from '../../schemas/graph-request.js';
import { serveEndpoint as serve } from '../serve-endpoint.js';

/** The most of a data-plane answer sent on to the console (8 MiB): a long PRINT is cut, not buffered whole. */
export const GRAPH_ANSWER_LIMIT = 8 * 1024 * 1024;

/** The answer's text, at most `limit` bytes of it; a longer stream is closed once that much is read. */
async function answerText(body: GraphDataAnswer['body'], limit: number): Promise<{ text: string; truncated: boolean }> {
  let bytes: Buffer;
  if (body instanceof Readable) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      chunks.push(buf);
      size += buf.length;
      if (size > limit) {
        body.destroy();
        break;
      }
    }
    bytes = Buffer.concat(chunks);
  } else if (Buffer.isBuffer(body)) bytes = body;
  else bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const truncated = bytes.length > limit;
  return { text: bytes.subarray(0, limit).toString('utf8'), truncated };
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

/**
 * The console's way to a workspace's graph: the caller's API key and the access rule stand in for the
 * gateway's database-user credentials, and the gateway's backend serves the request.
 * The work runs in `prepare`, so a slow query never holds a store transaction.
 */
export function graphRoutes(api: FastifyInstance, services: Services, backend: GraphBackend): void {
  serve(api, 'graphRequest', async (_request, _reply, answer: GraphAnswer) => answer, {
    prepare: async ({ principal, params, body }) => {
      const ws = await services.workspaces.find(principal, params.workgroupID, params.workspaceID);
      const kind = graphRequestKind(body.method, body.path);
      if (kind === 'run') authorize(principal, GRAPH_RUN_ACTION, { workgroupId: ws.workgroup_id, workspaceId: ws.id });
      await services.gateway.ready(ws);
      const answer = await backend(
        {
          method: body.method,
          path: body.path,
          query: body.query ?? '',
          body: body.body === undefined ? undefined : Buffer.from(body.body, 'utf8'),
          orgId: principal.orgId,
          userId: principal.userId ?? '',
          keyName: principal.keyName,
        },
        ws,
      );
      const { text, truncated } = await answerText(answer.body, GRAPH_ANSWER_LIMIT);
      return { status: answer.status, content_type: header(answer.headers?.['content-type']), text, truncated };
    },
  });
}
