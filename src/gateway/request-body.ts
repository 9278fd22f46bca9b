import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { AppError } from '../domain/errors.js';

/** The 413 of a body over the gateway's limit, which the workspaces' processes are started with too. */
export const bodyTooLarge = (limit: number): AppError =>
  new AppError('payload-too-large', { field: 'body', reason: `is larger than the limit of ${limit} bytes` });

/** The client's body when it announced one (a length or chunks) and has not sent it all yet. */
export function announcedBody(raw: IncomingMessage): Readable | undefined {
  const announced = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
  return announced && !raw.readableEnded ? raw : undefined;
}

/** Whether the client announced a body longer than `limit` (Content-Length). */
export function announcedTooLarge(contentLength: string | undefined, limit: number): boolean {
  return contentLength !== undefined && Number(contentLength) > limit;
}

/**
 * The client's body as it arrives, at most `limit` bytes: past them the copy fails with the
 * 413 and the rest of the client's body is read and dropped, so that a client still sending
 * gets the answer instead of a reset connection. The client's stream is read only as the
 * copy is, so a body nobody reads is left for Node to discard after the answer.
 */
export class LimitedBody extends Readable {
  /** Set once the body went past the limit: whatever the reader made of the failure, it is a 413. */
  exceeded = false;
  private size = 0;
  private started = false;

  constructor(
    private readonly source: Readable,
    readonly limit: number,
  ) {
    super();
  }

  override _read(): void {
    if (this.started) {
      this.source.resume();
      return;
    }
    this.started = true;
    this.source.on('data', this.onData);
    this.source.once('end', () => this.push(null));
    this.source.once('error', (err) => this.destroy(err));
  }

  private readonly onData = (chunk: Buffer): void => {
    this.size += chunk.length;
    if (this.size <= this.limit) {
      if (!this.push(chunk)) this.source.pause();
      return;
    }
    this.exceeded = true;
    this.source.off('data', this.onData);
    this.source.resume();
    this.destroy(bodyTooLarge(this.limit));
  };
}

/** The whole body, for the requests the gateway reads itself (the handshake); undefined when empty. */
export async function readWhole(body: Readable | undefined): Promise<Buffer | undefined> {
  if (!body) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
}
