import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { rawExchange, requestBytes, type RawOutcome } from './helpers/raw-http.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';

// Short timeouts so each slow client is cut off within a second; the defaults are 10 s
// (headers), 30 s (request) and 72 s (keep-alive).
const HEADERS_S = 0.3;
const REQUEST_S = 0.8;
const KEEP_ALIVE_S = 0.3;
// Time for Node's periodic check (half the headers timeout here) plus slack for a busy machine;
// a client that is not cut off would go on for over 15 s.
const SLACK_MS = 3000;
const DEADLINE_MS = 8000;

/** Writes `text` one byte every `everyMs` until the socket closes; never finishes on its own. */
function dribble(text: string, everyMs = 50) {
  return (socket: Socket) => {
    let i = 0;
    const timer = setInterval(() => {
      if (socket.destroyed || i >= text.length) return clearInterval(timer);
      socket.write(text[i++]!);
    }, everyMs);
    socket.on('close', () => clearInterval(timer));
  };
}

function envelopeOf(outcome: RawOutcome): { status: number; body: Record<string, unknown> } {
  assert.ok(outcome.response, `no response; the server sent ${JSON.stringify(outcome.data.toString('latin1'))}`);
  return { status: outcome.response.status, body: JSON.parse(outcome.response.body.toString('utf8')) as Record<string, unknown> };
}

function assertRefused(outcome: RawOutcome, status: number, field: string): void {
  assert.equal(outcome.timedOut, false, 'the server kept the connection open');
  const { status: got, body } = envelopeOf(outcome);
  assert.equal(got, status, JSON.stringify(body));
  assert.equal(body.Error, true);
  assert.equal('Result' in body, false);
  assert.match(String(body.RequestID), /^[0-9a-f-]{36}$/);
  assert.deepEqual(
    (body.ErrorDetails as Array<Record<string, unknown>>).map((d) => [d.FieldName, d.Type]),
    [[field, 'Bad-Request']],
  );
}

describe(`listener limits: slow and abusive clients (${storeName})`, () => {
  let server: TestServer;
  let api: string;
  let host: string;

  before(async () => {
    server = await startTestServer({
      ACACIA_HEADERS_TIMEOUT: String(HEADERS_S),
      ACACIA_REQUEST_TIMEOUT: String(REQUEST_S),
      ACACIA_KEEP_ALIVE_TIMEOUT: String(KEEP_ALIVE_S),
    });
    api = server.url;
    host = new URL(api).host;
  });
  after(() => server.close());

  it('cuts off a client that sends its headers one byte at a time, with 408', async () => {
    const outcome = await rawExchange(api, dribble(`GET /controller/v4/v2/workgroups HTTP/1.1\r\nhost: ${host}\r\nx-api-key: ${server.bootstrapKey}\r\nx-slow: ${'s'.repeat(200)}`), DEADLINE_MS);
    assertRefused(outcome, 408, 'request');
    assert.ok(outcome.elapsedMs < HEADERS_S * 1000 + SLACK_MS, `cut off after ${outcome.elapsedMs} ms`);
  });

  it('cuts off a client that sends its body one byte at a time, with 408', async () => {
    const head = `POST /controller/v4/v2/workgroups HTTP/1.1\r\nhost: ${host}\r\nx-api-key: ${server.bootstrapKey}\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n`;
    const outcome = await rawExchange(api, (socket) => {
      socket.write(head);
      dribble(`{"name": "${'b'.repeat(380)}"}`)(socket);
    }, DEADLINE_MS);
    assertRefused(outcome, 408, 'request');
    assert.ok(outcome.elapsedMs < REQUEST_S * 1000 + SLACK_MS, `cut off after ${outcome.elapsedMs} ms`);
  });

  it('cuts off a connection that never sends anything, with 408', async () => {
    const outcome = await rawExchange(api, () => undefined, DEADLINE_MS);
    assertRefused(outcome, 408, 'request');
    assert.ok(outcome.elapsedMs < HEADERS_S * 1000 + SLACK_MS, `cut off after ${outcome.elapsedMs} ms`);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const outcome = await rawExchange(api, requestBytes('GET', '/healthz', [['host', host]]), DEADLINE_MS);
    assert.equal(outcome.response?.status, 200);
    assert.equal(outcome.timedOut, false, 'the idle connection stayed open');
    assert.ok(outcome.elapsedMs < KEEP_ALIVE_S * 1000 + SLACK_MS, `closed after ${outcome.elapsedMs} ms`);
  });

  it('answers oversized headers with 431 and malformed requests with 400, as envelopes', async () => {
    assertRefused(await rawExchange(api, requestBytes('GET', '/healthz', [['host', host], ['x-big', 'b'.repeat(17 * 1024)]])), 431, 'headers');
    assertRefused(await rawExchange(api, Buffer.from(`GET /healthz HTTP/1.1\r\nhost: ${host}\r\nbad header: x\r\n\r\n`)), 400, 'headers');
    assertRefused(await rawExchange(api, Buffer.from(`BREW /healthz HTTP/1.1\r\nhost: ${host}\r\n\r\n`)), 400, 'method');
    assertRefused(await rawExchange(api, Buffer.from('GET /healthz HTTP/1.1\r\nconnection: close\r\n\r\n')), 400, 'Host');
  });

  it('applies the same limits to the gateway, answering in its own shape', async () => {
    const gateway = server.running.gatewayUrl;
    const slow = await rawExchange(gateway, dribble(`GET /api/ping HTTP/1.1\r\nhost: ${new URL(gateway).host}\r\nx-slow: ${'s'.repeat(200)}`), DEADLINE_MS);
    assert.equal(slow.timedOut, false);
    assert.equal(slow.response?.status, 408);
    assert.deepEqual(JSON.parse(slow.response.body.toString()), { error: true, code: 'request-timeout', message: `request was not received in time (headers within ${HEADERS_S} s, the whole request within ${REQUEST_S} s)` });
    const big = await rawExchange(gateway, requestBytes('GET', '/api/ping', [['host', 'x'], ['x-big', 'b'.repeat(17 * 1024)]]));
    assert.equal(big.response?.status, 431);
    assert.equal(JSON.parse(big.response.body.toString()).code, 'headers-too-large');
  });
});

describe(`listener limits: connection cap (${storeName})`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ ACACIA_MAX_CONNECTIONS: '3' });
  });
  after(() => server.close());

  it('closes connections past ACACIA_MAX_CONNECTIONS at once and serves again when one ends', async () => {
    const host = new URL(server.url).host;
    const holders: Array<Promise<RawOutcome>> = [];
    const sockets: Socket[] = [];
    // Three clients hold a connection each with an unfinished request.
    for (let i = 0; i < 3; i++) {
      holders.push(rawExchange(server.url, (socket) => {
        sockets.push(socket);
        socket.write(`GET /healthz HTTP/1.1\r\nhost: ${host}\r\n`);
      }, 5000));
    }
    await new Promise((r) => setTimeout(r, 200));
    const refused = await rawExchange(server.url, requestBytes('GET', '/healthz', [['host', host], ['connection', 'close']]), 2000);
    assert.equal(refused.timedOut, false);
    assert.equal(refused.response, undefined, 'a connection past the cap is closed without an answer');
    sockets.forEach((s) => s.destroy());
    await Promise.all(holders);
    // The server counts a connection out once it sees it close; give it a moment.
    let served: RawOutcome | undefined;
    for (let i = 0; i < 30 && served?.response?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      served = await rawExchange(server.url, requestBytes('GET', '/healthz', [['host', host], ['connection', 'close']]), 2000);
    }
    assert.equal(served?.response?.status, 200);
  });
});
