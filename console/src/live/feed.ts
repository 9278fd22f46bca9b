import { SseParser } from './sse.js';

/**
 * The fields of an event (see the event stream contract) the console acts on; the whole
 * object also carries org_id, time and data, the record's new state.
 */
export interface LiveEvent {
  event_id: number;
  type: string;
  resource_kind: string;
  resource_id: string;
  workgroup_id?: string;
  workspace_id?: string;
}

/**
 * What subscribers hear: an event; `resync` when the stream (re)connects, since events from
 * before it may have been missed; `tick` every POLL_MS while there is no stream.
 */
export type LiveSignal = { kind: 'event'; event: LiveEvent } | { kind: 'resync' } | { kind: 'tick' };

/** `stream`: events arrive as they happen; `polling`: the records are read again every 3 s. */
export type LiveMode = 'connecting' | 'stream' | 'polling';

export const POLL_MS = 3000;

/** A tab in the background skips its polls (typed loosely: the feed also runs outside a browser). */
const pageHidden = () => (globalThis as { document?: { hidden?: boolean } }).document?.hidden === true;
/** A server without the stream is asked again this often (it may have been upgraded). */
const PROBE_AGAIN_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 30_000;

export interface FeedOptions {
  url: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** A 401 on the stream: the key is no longer valid. */
  onUnauthorized?: (reason: string) => void;
  /** Whether the server answered the stream's request at all. */
  onReachable?: (reachable: boolean) => void;
}

/**
 * One stream of the organisation's events per signed-in tab (browsers allow few connections
 * per host, so pages filter what they need from it). EventSource cannot send the API key
 * header, hence fetch() and a reader. Without the stream (404: a server without events, or
 * while reconnecting after a failure) subscribers are told to poll every 3 s.
 */
export class LiveFeed {
  private readonly listeners = new Set<(signal: LiveSignal) => void>();
  private readonly modeListeners = new Set<(mode: LiveMode) => void>();
  private controller: AbortController | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private lastEventId: string | undefined;
  private failures = 0;
  private stopped = false;
  mode: LiveMode = 'connecting';

  constructor(private readonly options: FeedOptions) {}

  subscribe(listener: (signal: LiveSignal) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onMode(listener: (mode: LiveMode) => void): () => void {
    this.modeListeners.add(listener);
    return () => this.modeListeners.delete(listener);
  }

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  /**
   * Reconnects now instead of at the end of the back-off (the user asked to retry), and has
   * every page read its data again meanwhile.
   */
  retryNow(): void {
    if (this.stopped || this.mode === 'stream') return;
    clearTimeout(this.retryTimer);
    this.controller?.abort();
    this.emit({ kind: 'tick' });
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
    clearTimeout(this.retryTimer);
    this.setPolling(false);
  }

  private emit(signal: LiveSignal): void {
    for (const listener of [...this.listeners]) listener(signal);
  }

  private setMode(mode: LiveMode): void {
    if (this.mode === mode) return;
    this.mode = mode;
    for (const listener of [...this.modeListeners]) listener(mode);
  }

  private setPolling(on: boolean): void {
    if (on && !this.pollTimer) {
      this.pollTimer = setInterval(() => {
        if (!pageHidden()) this.emit({ kind: 'tick' });
      }, POLL_MS);
    } else if (!on && this.pollTimer) {
      clearInterval(this.pollTimer);
      this.pollTimer = undefined;
    }
    if (on) this.setMode('polling');
  }

  private retryIn(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), ms);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const controller = new AbortController();
    this.controller = controller;
    const headers: Record<string, string> = { accept: 'text/event-stream', 'x-api-key': this.options.apiKey };
    if (this.lastEventId !== undefined) headers['last-event-id'] = this.lastEventId;
    let res: Response;
    try {
      res = await (this.options.fetch ?? fetch)(this.options.url, {
        headers,
        signal: controller.signal,
      });
    } catch {
      if (!controller.signal.aborted) {
        this.options.onReachable?.(false);
        this.failed();
      }
      return;
    }
    this.options.onReachable?.(true);
    // A connection stopped (or replaced) meanwhile has nothing more to say.
    if (controller.signal.aborted || this.controller !== controller) {
      void res.body?.cancel();
      return;
    }
    if (res.status === 404) {
      void res.body?.cancel();
      this.setPolling(true);
      return this.retryIn(PROBE_AGAIN_MS);
    }
    if (res.status === 401) {
      const reason = await res
        .json()
        .then((e) => (e as { ErrorDetails?: Array<{ Reason?: string }> }).ErrorDetails?.[0]?.Reason)
        .catch(() => undefined);
      this.stop();
      this.options.onUnauthorized?.(reason ?? 'the API key was refused');
      return;
    }
    if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      void res.body?.cancel();
      return this.failed();
    }
    await this.read(res.body, controller);
  }

  private async read(body: ReadableStream<Uint8Array>, controller: AbortController): Promise<void> {
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const reader = body.getReader();
    this.failures = 0;
    this.setPolling(false);
    this.setMode('stream');
    this.emit({ kind: 'resync' });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const message of parser.push(decoder.decode(value, { stream: true }))) {
          if (parser.lastEventId !== undefined) this.lastEventId = parser.lastEventId;
          try {
            this.emit({ kind: 'event', event: JSON.parse(message.data) as LiveEvent });
          } catch {
            // A message that is not an event object is not ours to act on.
          }
        }
      }
    } catch {
      // Aborted or cut off: handled below like a stream the server ended.
    }
    if (controller.signal.aborted || this.stopped) return;
    this.failed(parser.retry);
  }

  /** The stream failed or ended: poll meanwhile and reconnect (resuming after the last id). */
  private failed(serverRetry?: number): void {
    if (this.stopped) return;
    this.setPolling(true);
    this.failures += 1;
    const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(this.failures - 1, 5));
    this.retryIn(serverRetry ?? backoff);
  }
}
