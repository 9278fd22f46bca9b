import { createServer } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { forward } from '../src/gateway/upstream-answer.js';
import { forwardedHeaders } from '../src/gateway/workspace-backend.js';
import { listenForParent } from './forked-server.js';

/**
 * The least a gateway must do to pass a request to a workspace's process: node:http, the
 * request sent on by the gateway's own forwarding (`forward`, undici) with the process's
 * secret added, through the process's Unix socket as the gateway does, the answer written
 * back. No framework, no admission (allow list, credentials, state, activity), no logging, no
 * metrics: the ceiling a proxy in this runtime reaches in front of the same process, which the
 * gateway's ratio is read against.
 * Answers on the port it reports to its parent over IPC; what to forward to comes after, over
 * IPC too (`BareProxyTarget`), as the gateway never puts the process's secret in an environment.
 */
export interface BareProxyTarget {
  /** http://host:port of the data-plane process. */
  origin: string;
  /** Headers added to every request: the data-plane secret. */
  headers: Record<string, string>;
  /** The process's Unix socket, taken instead of the origin's TCP port when given. */
  socketPath?: string;
}

let target: BareProxyTarget | undefined;
let agent = new Agent();
process.on('message', (message) => {
  target = message as BareProxyTarget;
  if (target.socketPath) agent = new Agent({ connect: { socketPath: target.socketPath } });
  process.send!('ready');
});

const server = createServer((req, res) => {
  if (!target) {
    res.writeHead(503).end('no target yet');
    return;
  }
  // The headers the gateway passes on, so both send the process the same request.
  const headers = { ...forwardedHeaders(req.headers), ...target.headers };
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  forward(agent, {
    origin: target.origin,
    path: req.url!,
    method: req.method as Dispatcher.HttpMethod,
    headers,
    body: hasBody ? req : null,
  }).then(
    (answer) => {
      res.writeHead(answer.status, answer.headers);
      if (Buffer.isBuffer(answer.body)) res.end(answer.body);
      else (answer.body as NodeJS.ReadableStream).pipe(res);
    },
    (err: Error) => {
      res.writeHead(502).end(err.message);
    },
  );
});
listenForParent(server, () => agent.close());
