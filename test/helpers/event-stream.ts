import net from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { SseParser } from '../../console/src/live/sse.js';
import { API_PREFIX } from '../../src/client/index.js';
import type { EventRecord } from '../../src/schemas/event.js';

/** An open event stream as a client sees it: what arrived so far, and ways to wait for more. */
export interface OpenStream {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  events: EventRecord[];
  /** SSE `event:` names, in order. */
  names: string[];
  /** Comment lines seen (heartbeats). */
  comments: number;
  retry: number | undefined;
  /** The data of `event: error` messages: why the server ended the stream. */
  errors: string[];
  /** Whether the server has ended the stream. */
  closed: boolean;
  /** The body of an answer that is not a stream (an error envelope). */
  body?: unknown;
  /** Resolves once pred holds for what arrived (rejects after timeoutMs). */
  until(pred: (s: OpenStream) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens GET /events as text/event-stream with the key (and Last-Event-ID when given). */
export async function openEventStream(
  baseUrl: string,
  apiKey: string,
  opts: { lastEventId?: string; query?: Record<string, string> } = {},
): Promise<OpenStream> {
  const url = new URL(`${API_PREFIX}/events`, baseUrl);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const controller = new AbortController();
  // A connection of its own, closed with the stream.
  const agent = new Agent({ pipelining: 0 });
  const res = await request(url, {
    dispatcher: agent,
    headers: {
      accept: 'text/event-stream',
      'x-api-key': apiKey,
      ...(opts.lastEventId !== undefined ? { 'last-event-id': opts.lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const parser = new SseParser();
  const waiters = new Set<() => void>();
  const stream: OpenStream = {
    status: res.statusCode,
    headers: res.headers,
    events: [],
    names: [],
    comments: 0,
    retry: undefined,
    errors: [],
    closed: false,
    until(pred, timeoutMs = 10_000) {
      if (pred(stream)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`stream: condition not met in ${timeoutMs} ms; saw ${stream.names.join(', ')}`));
        }, timeoutMs);
        const check = () => {
          if (!pred(stream)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    close: () => {
      controller.abort();
      void agent.destroy();
    },
  };
  if (res.statusCode !== 200) {
    stream.body = await res.body.json();
    return stream;
  }
  const decoder = new TextDecoder();
  res.body.on('data', (bytes: Buffer) => {
    const chunk = decoder.decode(bytes, { stream: true });
    stream.comments += chunk.split(/\r?\n/).filter((line) => line.startsWith(':')).length;
    for (const message of parser.push(chunk)) {
      if (message.event === 'error') {
        stream.errors.push(message.data);
        continue;
      }
      stream.names.push(message.event);
      stream.events.push(JSON.parse(message.data) as EventRecord);
    }
    stream.retry = parser.retry;
    for (const check of [...waiters]) check();
  });
  const ended = () => {
    stream.closed = true;
    for (const check of [...waiters]) check();
  };
  res.body.on('end', ended);
  res.body.on('close', ended);
  res.body.on('error', () => undefined);
  return stream;
}

/** A stream whose client reads nothing after the stream's first line, until told to. */
export interface HeldStream {
  /** Complete events read so far (none until `resume`). */
  events: EventRecord[];
  /** Starts reading: what the server sent meanwhile, then the rest as it comes. */
  resume(): void;
  /** Resolves once pred holds for what was read (rejects after timeoutMs). */
  until(pred: (events: EventRecord[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves when the connection has closed (by the server: read on to see it). */
  closed: Promise<void>;
  destroy(): void;
}

/**
 * Opens GET /events as a stream on a raw connection (HTTP/1.0, so the body is the stream's
 * bytes without chunk framing), waits for the stream's `retry:` line, then stops reading: the
 * client's buffers fill and the server's writes back up, as with a client that does not read.
 */
export function holdEventStream(
  baseUrl: string,
  apiKey: string,
  query: Record<string, string> = {},
): Promise<HeldStream> {
  const { hostname, port } = new URL(baseUrl);
  const target = `${API_PREFIX}/events?${new URLSearchParams({ format: 'sse', ...query })}`;
  const socket = net.connect({ host: hostname, port: Number(port) });
  socket.on('error', () => undefined);
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const waiters = new Set<() => void>();
  let head = Buffer.alloc(0);
  let started = false;
  const events: EventRecord[] = [];
  const take = (chunk: string) => {
    for (const message of parser.push(chunk)) events.push(JSON.parse(message.data) as EventRecord);
    for (const check of [...waiters]) check();
  };
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      if (started) return take(decoder.decode(chunk, { stream: true }));
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!/^HTTP\/1\.[01] 200 /.test(head.toString('latin1'))) return reject(new Error(head.toString()));
      if (!head.subarray(end + 4).includes('\n\n')) return;
      started = true;
      socket.pause();
      resolve({
        events,
        resume: () => socket.resume(),
        until(pred, timeoutMs = 10_000) {
          if (pred(events)) return Promise.resolve();
          return new Promise((ok, fail) => {
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`held stream: condition not met in ${timeoutMs} ms (${events.length} events)`));
            }, timeoutMs);
            const check = () => {
              if (!pred(events)) return;
              clearTimeout(timer);
              waiters.delete(check);
              ok();
            };
            waiters.add(check);
          });
        },
        closed,
        destroy: () => socket.destroy(),
      });
      // Whatever came with the first line is the stream's too.
      take(decoder.decode(head.subarray(end + 4), { stream: true }));
    };
    socket.on('data', onData);
    socket.on('close', () => reject(new Error('closed before the stream started')));
    socket.write(`GET ${target} HTTP/1.0\r\nhost: acacia\r\nx-api-key: ${apiKey}\r\n\r\n`);
  });
}
