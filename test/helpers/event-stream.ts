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
  if (res.statusCode !== 200) return stream;
  const decoder = new TextDecoder();
  res.body.on('data', (bytes: Buffer) => {
    const chunk = decoder.decode(bytes, { stream: true });
    stream.comments += chunk.split(/\r?\n/).filter((line) => line.startsWith(':')).length;
    for (const message of parser.push(chunk)) {
      stream.names.push(message.event);
      stream.events.push(JSON.parse(message.data) as EventRecord);
    }
    stream.retry = parser.retry;
    for (const check of [...waiters]) check();
  });
  res.body.on('error', () => undefined);
  return stream;
}
