import { createServer } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { forward } from '../src/gateway/upstream-answer.js';
import { hopByHop } from '../src/gateway/workspace-backend.js';
import { listenForParent } from './forked-server.js';

/**
 * The least a gateway must do to pass a request to a workspace's process: node:http, the
 * request sent on by the gateway's own forwarding (`forward`, undici) with the process's
 * secret added, the answer written back. No framework, no admission (allow list, credentials,
 * state, activity), no logging, no metrics: the ceiling a proxy in this runtime reaches in
 * front of the same process, which the gateway's ratio is read against.
 * Forwards to BARE_PROXY_TARGET (http://host:port) with the header BARE_PROXY_HEADER set to
 * BARE_PROXY_SECRET; answers on the port it reports to its parent over IPC.
 */
const target = process.env.BARE_PROXY_TARGET!;
const added = { [process.env.BARE_PROXY_HEADER!]: process.env.BARE_PROXY_SECRET! };
const agent = new Agent();

const server = createServer((req, res) => {
  const headers: Record<string, string | string[]> = { ...added };
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !hopByHop.has(name) && name !== 'host') headers[name] = value;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  forward(agent, {
    origin: target,
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
