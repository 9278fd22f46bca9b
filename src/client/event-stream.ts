import { request, type Dispatcher } from 'undici';

/**
 * The smallest reader of a text/event-stream the client needs: it yields the `id` of each
 * dispatched message (waitFor re-reads the record on any; the data is not needed) and keeps
 * the last id for a reconnect. Lines end in LF or CRLF, as the server writes them.
 */
export interface EventStreamReader {
  /** Resolves with 'event' at the next message, 'closed' when the stream ends, 'timeout' after ms. */
  next(ms: number): Promise<'event' | 'closed' | 'timeout'>;
  readonly lastEventId: string | undefined;
  close(): void;
}

export interface OpenEventsOptions {
  url: URL;
  headers: Record<string, string>;
  dispatcher?: Dispatcher | undefined;
  lastEventId?: string | undefined;
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
  let hasData = false;
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
        if (hasData) queued++;
        pendingId = undefined;
        hasData = false;
      } else if (line.startsWith('id:')) pendingId = line.slice(3).trim();
      else if (line.startsWith('data:')) hasData = true;
    }
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
    close() {
      ended = true;
      controller.abort();
    },
  };
}
