import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { forward } from './upstream-answer.js';

describe('forward', () => {
  let server: http.Server;
  let origin: string;
  const agent = new Agent();
  /** Settled when the server sees the connection of a streamed answer close before the answer ended. */
  let cutShort: (value: boolean) => void;
  const cut = new Promise<boolean>((resolve) => (cutShort = resolve));

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/small') {
        res.writeHead(201, [
          ['content-type', 'application/json'],
          ['content-length', '2'],
          ['keep-alive', 'timeout=5'],
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
        ]);
        res.end('{}');
      } else if (req.url === '/large') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 100; i++) res.write(Buffer.alloc(1024, 'a'.charCodeAt(0) + (i % 26)));
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write(Buffer.alloc(1024, 'x'));
        res.once('close', () => cutShort(!res.writableEnded));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await agent.close();
    server.close();
  });

  it('gives a small answer whole, with its headers but not those of the connection', async () => {
    const answer = await forward(agent, { origin, path: '/small', method: 'GET' });
    assert.equal(answer.status, 201);
    assert.ok(Buffer.isBuffer(answer.body));
    assert.equal(answer.body.toString(), '{}');
    assert.equal(answer.headers?.['content-type'], 'application/json');
    assert.deepEqual(answer.headers?.['set-cookie'], ['a=1', 'b=2']);
    for (const name of ['keep-alive', 'connection', 'transfer-encoding'])
      assert.equal(answer.headers?.[name], undefined);
  });

  it('streams an answer of unknown length, every byte in order', async () => {
    const answer = await forward(agent, { origin, path: '/large', method: 'GET' });
    assert.equal(answer.status, 200);
    assert.ok(answer.body instanceof Readable);
    assert.equal(answer.headers?.['transfer-encoding'], undefined);
    const body = Buffer.concat(await answer.body.toArray());
    assert.equal(body.length, 100 * 1024);
    for (let i = 0; i < 100; i++) assert.equal(body[i * 1024], 'a'.charCodeAt(0) + (i % 26));
  });

  it('closes the connection to the data plane when a streamed answer is dropped', async () => {
    const answer = await forward(agent, { origin, path: '/endless', method: 'GET' });
    assert.ok(answer.body instanceof Readable);
    const first = await new Promise<Buffer>((resolve) => (answer.body as Readable).once('data', resolve));
    assert.equal(first.length > 0, true);
    answer.body.destroy();
    assert.equal(await cut, true, 'the data plane stops sending an answer nobody reads');
  });
});
