import { request, type Dispatcher } from 'undici';

/** One dispatched message: its id, its `event` field (the type) and its data as sent. */
export interface EventMessage {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * Messages kept for take() before the reader stops reading: a consumer slower than the server
 * holds the connection back (TCP pushes back) instead of this queue growing without bound.
 */
const KEPT_MESSAGES = 1000;

/**
 * The smallest reader of a text/event-stream the client needs: it tells when messages came
 * (waitFor re-reads the record on any), keeps them for take() (events follow prints them),
 * and keeps the last id for a reconnect. Lines end in LF or CRLF, as the server writes them.
 */
export interface EventStreamReader {
  /** Resolves with 'event' at the next message, 'closed' when the stream ends, 'timeout' after ms. */
  next(ms: number): Promise<'event' | 'closed' | 'timeout'>;
  /** The messages received since the last take(), oldest first (opened with `keep`). */
  take(): EventMessage[];
  readonly lastEventId: string | undefined;
  close(): void;
}

export interface OpenEventsOptions {
  url: URL;
  headers: Record<string, string>;
  dispatcher?: Dispatcher | undefined;
  lastEventId?: string | undefined;
  /** Keep each message for take(); otherwise only that one came is noted. */
  keep?: boolean;
}

/** Opens the stream; undefined when the server has none (404) or answers anything but a stream. */
export async function openEventStream(options: OpenEventsOptions): Promise<EventStreamReader | undefined> {
  const controller = new AbortController();
  const res = await request(options.url, {
    headers: {
      ...options.headers,
      accept: 'text/event-stream',
      ...(options.lastEventId !== undefined ? { 'last-event-id': options.lastEventId } : {}),
    },
    signal: controller.signal,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode !== 200 || !type.startsWith('text/event-stream')) {
    await res.body.dump().catch(() => undefined);
    return undefined;
  }
  let lastEventId = options.lastEventId;
  let pendingId: string | undefined;
  let pendingEvent: string | undefined;
  let data: string[] = [];
  let hasData = false;
  let kept: EventMessage[] = [];
  let buffer = '';
  let queued = 0;
  let ended = false;
  let wake: (() => void) | undefined;
  const decoder = new TextDecoder();
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  res.body.on('data', (bytes: Buffer) => {
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (pendingId !== undefined) lastEventId = pendingId;
        if (hasData) {
          queued++;
          if (options.keep) kept.push({ id: pendingId, event: pendingEvent, data: data.join('\n') });
        }
        pendingId = undefined;
        pendingEvent = undefined;
        data = [];
        hasData = false;
      } else if (line.startsWith('id:')) pendingId = line.slice(3).trim();
      else if (line.startsWith('event:')) pendingEvent = line.slice(6).trim();
      else if (line.startsWith('data:')) {
        hasData = true;
        data.push(line.slice(5).replace(/^ /, ''));
      }
    }
    if (kept.length >= KEPT_MESSAGES) res.body.pause();
    if (queued > 0) notify();
  });
  const finish = () => {
    ended = true;
    notify();
  };
  res.body.on('end', finish);
  res.body.on('error', finish);
  res.body.on('close', finish);
  return {
    get lastEventId() {
      return lastEventId;
    },
    async next(ms) {
      if (queued === 0 && !ended) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      if (queued > 0) {
        // Several events since the last look need one re-read only.
        queued = 0;
        return 'event';
      }
      return ended ? 'closed' : 'timeout';
    },
    take() {
      const taken = kept;
      kept = [];
      if (res.body.isPaused()) res.body.resume();
      return taken;
    },
    close() {
      ended = true;
      controller.abort();
    },
  };
}
