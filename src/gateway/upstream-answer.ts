import { Readable } from 'node:stream';
import { util, type Dispatcher } from 'undici';
import { hopByHop, type BackendResponse } from './workspace-backend.js';

/**
 * Answers up to this size (announced by Content-Length) are read whole and sent in one write
 * with their length; larger ones, and those of unknown length, stream through.
 */
const WHOLE_ANSWER_BYTES = 64 * 1024;

/**
 * Sends one request through `dispatcher` and gives its answer as the gateway sends it on. It
 * takes the answer straight from undici's parser (no response stream, body mixin or abort
 * signal of `request`): a small answer is gathered into one buffer, a large one passes
 * through a stream whose pace (and whose destruction, when the client leaves) reaches the
 * connection to the data plane. Errors are undici's, as `request` rejects with them.
 */
export function forward(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions): Promise<BackendResponse> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new UpstreamAnswer(resolve, reject));
  });
}

class UpstreamAnswer implements Dispatcher.DispatchHandler {
  private abort: ((err?: Error) => void) | undefined;
  private status = 0;
  private headers: Record<string, string | string[]> = {};
  private chunks: Buffer[] | undefined;
  private stream: Readable | undefined;

  constructor(
    private readonly resolve: (answer: BackendResponse) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx answers (a 100 Continue) are the connection's business, not the client's.
    if (status < 200) return true;
    const parsed = util.parseHeaders(rawHeaders) as Record<string, string | string[] | undefined>;
    for (const name in parsed) {
      const value = parsed[name];
      if (value !== undefined && !hopByHop.has(name)) this.headers[name] = value;
    }
    this.status = status;
    // A chunked stream costs a write per chunk and one to end it; a small answer is sent at once.
    if (Number(parsed['content-length'] ?? NaN) <= WHOLE_ANSWER_BYTES) {
      this.chunks = [];
      return true;
    }
    const abort = this.abort;
    this.stream = new Readable({
      read: () => resume(),
      destroy: (err, done) => {
        abort?.(err ?? undefined);
        done(err);
      },
    });
    this.resolve({ status, headers: this.headers, body: this.stream });
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.stream) return this.stream.push(chunk);
    this.chunks!.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.stream) this.stream.push(null);
    else this.resolve({ status: this.status, headers: this.headers, body: Buffer.concat(this.chunks ?? []) });
  }

  onError(err: Error): void {
    if (this.stream) this.stream.destroy(err);
    else this.reject(err);
  }
}
