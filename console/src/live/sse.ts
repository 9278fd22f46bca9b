/** One dispatched Server-Sent Event. */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Parses the text/event-stream framing (the WHATWG rules EventSource applies): lines end in
 * CR, LF or CRLF, a blank line dispatches, `:` starts a comment (heartbeats), `data` lines
 * join with LF, an `id` holding NUL is ignored. Text arrives in arbitrary pieces.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private sawCr = false;
  /** The last id the stream set: what Last-Event-ID must say on a reconnect. */
  lastEventId: string | undefined;
  /** The reconnection delay the server asked for, in milliseconds. */
  retry: number | undefined;

  push(chunk: string): SseMessage[] {
    const out: SseMessage[] = [];
    let text = chunk;
    // A CRLF split across two pieces: the LF belongs to the CR already handled.
    if (this.sawCr && text.startsWith('\n')) text = text.slice(1);
    this.sawCr = false;
    this.buffer += text;
    for (;;) {
      const end = this.buffer.search(/[\r\n]/);
      if (end < 0) break;
      const line = this.buffer.slice(0, end);
      const isCr = this.buffer[end] === '\r';
      if (isCr && end + 1 === this.buffer.length) this.sawCr = true;
      const skip = isCr && this.buffer[end + 1] === '\n' ? 2 : 1;
      this.buffer = this.buffer.slice(end + skip);
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    if (this.id !== undefined) this.lastEventId = this.id;
    const hasData = this.data.length > 0;
    const message = { id: this.lastEventId, event: this.event || 'message', data: this.data.join('\n') };
    this.data = [];
    this.event = '';
    this.id = undefined;
    return hasData ? message : undefined;
  }
}
