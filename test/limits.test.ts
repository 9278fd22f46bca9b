import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../bench/server-process.js';
import {
  connectionsReach,
  idleAfterRequest,
  rawExchange,
  requestBytes,
  type IdleConnection,
  type RawOutcome,
} from './helpers/raw-http.js';
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
  return {
    status: outcome.response.status,
    body: JSON.parse(outcome.response.body.toString('utf8')) as Record<string, unknown>,
  };
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
    const outcome = await rawExchange(
      api,
      dribble(
        `GET /controller/v4/v2/workgroups HTTP/1.1\r\nhost: ${host}\r\nx-api-key: ` +
          `${server.bootstrapKey}\r\nx-slow: ${'s'.repeat(200)}`,
      ),
      DEADLINE_MS,
    );
    assertRefused(outcome, 408, 'request');
    assert.ok(outcome.elapsedMs < HEADERS_S * 1000 + SLACK_MS, `cut off after ${outcome.elapsedMs} ms`);
  });

  it('cuts off a client that sends its body one byte at a time, with 408', async () => {
    const head =
      `POST /controller/v4/v2/workgroups HTTP/1.1\r\nhost: ${host}\r\nx-api-key: ` +
      `${server.bootstrapKey}\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n`;
    const outcome = await rawExchange(
      api,
      (socket) => {
        socket.write(head);
        dribble(`{"name": "${'b'.repeat(380)}"}`)(socket);
      },
      DEADLINE_MS,
    );
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
    assertRefused(
      await rawExchange(
        api,
        requestBytes('GET', '/healthz', [
          ['host', host],
          ['x-big', 'b'.repeat(17 * 1024)],
        ]),
      ),
      431,
      'headers',
    );
    assertRefused(
      await rawExchange(api, Buffer.from(`GET /healthz HTTP/1.1\r\nhost: ${host}\r\nbad header: x\r\n\r\n`)),
      400,
      'headers',
    );
    assertRefused(
      await rawExchange(api, Buffer.from(`BREW /healthz HTTP/1.1\r\nhost: ${host}\r\n\r\n`)),
      400,
      'method',
    );
    assertRefused(
      await rawExchange(api, Buffer.from('GET /healthz HTTP/1.1\r\nconnection: close\r\n\r\n')),
      400,
      'Host',
    );
  });

  it('applies the same limits to the gateway, answering in its own shape', async () => {
    const gateway = server.running.gatewayUrl;
    const slow = await rawExchange(
      gateway,
      dribble(`GET /api/ping HTTP/1.1\r\nhost: ${new URL(gateway).host}\r\nx-slow: ${'s'.repeat(200)}`),
      DEADLINE_MS,
    );
    assert.equal(slow.timedOut, false);
    assert.equal(slow.response?.status, 408);
    assert.deepEqual(JSON.parse(slow.response.body.toString()), {
      error: true,
      code: 'request-timeout',
      message:
        `request was not received in time (headers within ` +
        `${HEADERS_S} s, the whole request within ${REQUEST_S} s)`,
    });
    const big = await rawExchange(
      gateway,
      requestBytes('GET', '/api/ping', [
        ['host', 'x'],
        ['x-big', 'b'.repeat(17 * 1024)],
      ]),
    );
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
      holders.push(
        rawExchange(
          server.url,
          (socket) => {
            sockets.push(socket);
            socket.write(`GET /healthz HTTP/1.1\r\nhost: ${host}\r\n`);
          },
          5000,
        ),
      );
    }
    await connectionsReach(server.running.app.server, 3);
    const refused = await rawExchange(
      server.url,
      requestBytes('GET', '/healthz', [
        ['host', host],
        ['connection', 'close'],
      ]),
      2000,
    );
    assert.equal(refused.timedOut, false);
    assert.equal(refused.response, undefined, 'a connection past the cap is closed without an answer');
    sockets.forEach((s) => s.destroy());
    await Promise.all(holders);
    // The server counts a connection out once it sees it close; give it a moment.
    let served: RawOutcome | undefined;
    for (let i = 0; i < 30 && served?.response?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      served = await rawExchange(
        server.url,
        requestBytes('GET', '/healthz', [
          ['host', host],
          ['connection', 'close'],
        ]),
        2000,
      );
    }
    assert.equal(served?.response?.status, 200);
  });
});

describe(`listener limits: connections per client, and keep-alive near the cap (${storeName})`, () => {
  // Loopback answers on every 127.x.y.z, so each test client connects from an address of its own.
  const PER_CLIENT = 3;
  const CAP = 8;
  let server: TestServer;
  let extraPortUrl: string;
  const open: IdleConnection[] = [];

  before(async () => {
    const extraPort = await freePort();
    extraPortUrl = `http://127.0.0.1:${extraPort}`;
    server = await startTestServer({
      ACACIA_MAX_CONNECTIONS: String(CAP),
      ACACIA_MAX_CONNECTIONS_PER_CLIENT: String(PER_CLIENT),
      ACACIA_KEEP_ALIVE_TIMEOUT: '60',
      ACACIA_GATEWAY_EXTRA_PORTS: String(extraPort),
    });
  });
  after(async () => {
    open.forEach((c) => c.socket.destroy());
    await server.close();
  });

  const ping = (url: string) => requestBytes('GET', '/healthz', [['host', new URL(url).host]]);
  const pingOnce = (url: string) =>
    requestBytes('GET', '/healthz', [
      ['host', new URL(url).host],
      ['connection', 'close'],
    ]);
  async function idle(url: string, localAddress: string): Promise<IdleConnection> {
    const c = await idleAfterRequest(url, ping(url), { localAddress });
    // The gateway answers /healthz with its 404; any answer will do.
    assert.ok(c?.response.status, `no answer from ${localAddress}`);
    open.push(c!);
    return c!;
  }
  const closeAll = async (list: IdleConnection[]) => {
    list.forEach((c) => c.socket.destroy());
    await Promise.all(list.map((c) => c.closed));
    // The server counts a connection out once it sees it close.
    await new Promise((r) => setTimeout(r, 200));
  };

  it('closes a connection past ACACIA_MAX_CONNECTIONS_PER_CLIENT at once (API, gateway, its extra port)', async () => {
    for (const url of [server.url, server.running.gatewayUrl, extraPortUrl]) {
      const held = [];
      for (let i = 0; i < PER_CLIENT; i++) held.push(await idle(url, '127.0.0.2'));
      const refused = await rawExchange(url, ping(url), 2000, { localAddress: '127.0.0.2' });
      assert.equal(refused.timedOut, false);
      assert.equal(refused.response, undefined, 'a connection past the per-client cap is closed without an answer');
      const other = await rawExchange(url, pingOnce(url), 2000, { localAddress: '127.0.0.3' });
      assert.ok(other.response, `another client is served on ${url}`);
      await closeAll(held);
      const again = await idleAfterRequest(url, ping(url), { localAddress: '127.0.0.2' });
      assert.ok(again?.response, 'the client is served again once it holds fewer connections');
      again!.socket.destroy();
      await again!.closed;
    }
  });

  it('keeps connections idle near the cap a second only; frees idle ones when the cap refuses one', async () => {
    // The last test's connections are gone from the API's count.
    await connectionsReach(server.running.app.server, 0);
    const nearCap = Math.ceil(CAP * 0.75);
    const early: IdleConnection[] = [];
    for (let i = 0; i < nearCap - 1; i++) early.push(await idle(server.url, `127.0.1.${i + 1}`));
    // This one falls idle with the listener at three quarters of its cap.
    const late = await idle(server.url, '127.0.2.1');
    const lateIdleMs = await Promise.race([
      late.closed,
      new Promise<number>((r) => setTimeout(() => r(Infinity), 5000)),
    ]);
    assert.ok(lateIdleMs < 3000, `idle near the cap for ${lateIdleMs} ms; the keep-alive is 60 s`);

    // Fill the cap with connections that are sending a request (not idle), then one more.
    const host = new URL(server.url).host;
    const busy: Array<Promise<RawOutcome>> = [];
    for (let i = 0; i < CAP - early.length; i++)
      busy.push(
        rawExchange(server.url, (socket) => socket.write(`GET /healthz HTTP/1.1\r\nhost: ${host}\r\n`), 3000, {
          localAddress: `127.0.3.${i + 1}`,
        }),
      );
    await connectionsReach(server.running.app.server, CAP);
    const refused = await rawExchange(server.url, ping(server.url), 2000, { localAddress: '127.0.4.1' });
    assert.equal(refused.response, undefined, 'past the cap a connection is closed at once');
    // The refusal closed the idle connections, whose keep-alive had 60 s to run.
    for (const c of early) {
      const ms = await Promise.race([c.closed, new Promise<number>((r) => setTimeout(() => r(Infinity), 3000))]);
      assert.ok(ms < 60_000, 'an idle connection was closed to make room');
    }
    let served: RawOutcome | undefined;
    for (let i = 0; i < 20 && !served?.response; i++) {
      served = await rawExchange(server.url, pingOnce(server.url), 2000, { localAddress: '127.0.4.2' });
      if (!served.response) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(served?.response?.status, 200, 'a new client is served once the idle connections are gone');
    await Promise.all(busy);
  });
});
