import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type RawHeaders = Array<[string, string | Buffer]>;

/** One HTTP/1.1 request as bytes: exactly what is given, so headers and bodies may be malformed on purpose. */
export function requestBytes(method: string, target: string | Buffer, headers: RawHeaders, body?: Buffer): Buffer {
  const parts: Buffer[] = [
    Buffer.from(`${method} `, 'latin1'),
    Buffer.isBuffer(target) ? target : Buffer.from(target, 'latin1'),
    Buffer.from(' HTTP/1.1\r\n', 'latin1'),
  ];
  for (const [name, value] of headers)
    parts.push(
      Buffer.from(`${name}: `, 'latin1'),
      Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1'),
      Buffer.from('\r\n'),
    );
  if (body) parts.push(Buffer.from(`content-length: ${body.length}\r\n`));
  parts.push(Buffer.from('\r\n'));
  if (body) parts.push(body);
  return Buffer.concat(parts);
}

/** Parses the first response in `data`: status line, headers, and a Content-Length or chunked body. */
export function parseResponse(data: Buffer): RawResponse | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = data.subarray(end + 4);
  if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status: Number(m[1]), headers, body };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

export interface RawOutcome {
  /** The response, when one arrived before the connection closed. */
  response?: RawResponse;
  /** Everything the server sent. */
  data: Buffer;
  /** Milliseconds until the server closed the connection (or the deadline). */
  elapsedMs: number;
  /** True when the deadline passed with the connection still open. */
  timedOut: boolean;
}

/**
 * Sends `bytes` on a fresh connection and collects what comes back until the server closes
 * the connection or `deadlineMs` passes. Write errors are ignored: a server may answer and
 * close before it has read a large body.
 */
export function rawExchange(
  url: string,
  bytes: Buffer | ((socket: net.Socket) => void),
  deadlineMs = 10_000,
  from: { localAddress?: string } = {},
): Promise<RawOutcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connectTo(url, from);
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const data = Buffer.concat(chunks);
      resolve({
        data,
        elapsedMs: Date.now() - started,
        timedOut,
        ...(parseResponse(data) ? { response: parseResponse(data)! } : {}),
      });
    };
    const timer = setTimeout(() => finish(true), deadlineMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(false));
    socket.on('connect', () => {
      if (typeof bytes === 'function') bytes(socket);
      else socket.write(bytes, () => undefined);
    });
  });
}

function connectTo(url: string, from: { localAddress?: string }): net.Socket {
  const { hostname, port } = new URL(url);
  return net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port), ...from });
}

/** A keep-alive connection left open after one answered request. */
export interface IdleConnection {
  response: RawResponse;
  socket: net.Socket;
  /** Resolves with the milliseconds from the response until the server closed the connection. */
  closed: Promise<number>;
}

/**
 * Sends `bytes` (one keep-alive request) from `localAddress` and waits for the answer,
 * leaving the connection open; undefined when the server closed it without answering.
 */
export function idleAfterRequest(
  url: string,
  bytes: Buffer,
  from: { localAddress?: string } = {},
): Promise<IdleConnection | undefined> {
  return new Promise((resolve) => {
    const socket = connectTo(url, from);
    let data = Buffer.alloc(0);
    let answeredAt: number | undefined;
    let markClosed!: (ms: number) => void;
    const closed = new Promise<number>((r) => (markClosed = r));
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      const response = answeredAt === undefined ? parseResponse(data) : undefined;
      const length = Number(response?.headers['content-length'] ?? NaN);
      if (response && (Number.isNaN(length) || response.body.length >= length)) {
        answeredAt = Date.now();
        resolve({ response, socket, closed });
      }
    });
    socket.on('close', () => {
      if (answeredAt === undefined) resolve(undefined);
      markClosed(Date.now() - (answeredAt ?? Date.now()));
    });
    socket.on('connect', () => socket.write(bytes));
  });
}

/**
 * Resolves once the listener holds `n` connections: it counts one in as it accepts it and out
 * as it sees it close, a moment after the client's side, and later still on a busy machine.
 */
export async function connectionsReach(server: net.Server, n: number, timeoutMs = 10_000): Promise<void> {
  const count = () =>
    new Promise<number>((resolve, reject) => server.getConnections((err, c) => (err ? reject(err) : resolve(c))));
  const giveUp = Date.now() + timeoutMs;
  for (let held = await count(); held !== n; held = await count()) {
    if (Date.now() > giveUp) throw new Error(`the listener holds ${held} connections, not ${n}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
