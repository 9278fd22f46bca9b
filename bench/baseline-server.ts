import { createServer } from 'node:http';
import { listenForParent } from './forked-server.js';

/**
 * The ceiling for Node on this machine: a bare node:http server answering each path with a
 * pre-serialised body registered by the parent over IPC (the same bytes Acacia answered).
 * POST bodies are read to the end before answering, as any server must.
 */
const bodies = new Map<string, Buffer>();

const server = createServer((req, res) => {
  const body = bodies.get(req.url ?? '');
  const answer = () => {
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  };
  if (req.method === 'GET' || req.method === 'HEAD') answer();
  else req.on('data', () => undefined).on('end', answer);
});

process.on('message', (message: { path: string; body: string }) => {
  bodies.set(message.path, Buffer.from(message.body, 'base64'));
  process.send!({ registered: message.path });
});

listenForParent(server);
