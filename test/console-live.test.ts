import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { LiveFeed, POLL_MS, type LiveMode, type LiveSignal } from '../console/src/live/feed.js';
import { SseParser } from '../console/src/live/sse.js';

describe('console event stream: SSE framing', () => {
  it('dispatches on a blank line, whatever the line endings and however the text is cut', () => {
    const text =
      ': heartbeat\r\nid: 7\r\nevent: workspace.created\r\ndata: {"a":\r\ndata: 1}\r\n\r\n' +
      'id: 8\nevent: workspace.status_changed\ndata: {"b":2}\n\n' +
      'id: 9\revent: workspace.updated\rdata:{"c":3}\r\r';
    for (const size of [1, 2, 3, 5, 13, text.length]) {
      const parser = new SseParser();
      const got = [];
      for (let i = 0; i < text.length; i += size) got.push(...parser.push(text.slice(i, i + size)));
      assert.deepEqual(
        got,
        [
          { id: '7', event: 'workspace.created', data: '{"a":\n1}' },
          { id: '8', event: 'workspace.status_changed', data: '{"b":2}' },
          { id: '9', event: 'workspace.updated', data: '{"c":3}' },
        ],
        `pieces of ${size}`,
      );
      assert.equal(parser.lastEventId, '9');
    }
  });

  it('keeps the last id across events without one, ignores comments and empty events, reads retry', () => {
    const parser = new SseParser();
    const got = parser.push('id: 3\ndata: x\n\n: heartbeat\n\ndata: y\n\nevent: nothing\n\nretry: 2500\nid: 4\n\n');
    assert.deepEqual(got, [
      { id: '3', event: 'message', data: 'x' },
      { id: '3', event: 'message', data: 'y' },
    ]);
    assert.equal(parser.lastEventId, '4', 'an id with no data still moves the resume point');
    assert.equal(parser.retry, 2500);
  });
});

/** A response whose body the test writes into, as a server streaming events would. */
function streamingResponse(status = 200) {
  let push!: (text: string) => void;
  let end!: () => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (text) => controller.enqueue(new TextEncoder().encode(text));
      end = () => controller.close();
    },
  });
  const response = new Response(body, { status, headers: { 'content-type': 'text/event-stream' } });
  return { response, push: (text: string) => push(text), end: () => end() };
}

const event = (id: number, type: string) =>
  `id: ${id}\nevent: ${type}\ndata: ` +
  `${JSON.stringify({ event_id: id, type, resource_kind: 'workspace', resource_id: 'ws' })}\n\n`;

const settle = () => new Promise((r) => setImmediate(r));

describe('console event stream: the feed', () => {
  it('polls every 3 s while the server has no stream (404); asks the key header and text/event-stream', async () => {
    mock.timers.enable({ apis: ['setInterval', 'setTimeout'] });
    try {
      const requests: RequestInit[] = [];
      const feed = new LiveFeed({
        url: '/events',
        apiKey: 'acacia_sk_x',
        fetch: async (_url, init) => {
          requests.push(init!);
          return new Response('{}', { status: 404 });
        },
      });
      const signals: LiveSignal[] = [];
      feed.subscribe((s) => signals.push(s));
      feed.start();
      await settle();
      assert.equal(feed.mode, 'polling');
      const headers = requests[0]!.headers as Record<string, string>;
      assert.equal(headers['x-api-key'], 'acacia_sk_x');
      assert.equal(headers.accept, 'text/event-stream');
      mock.timers.tick(POLL_MS * 3);
      assert.deepEqual(signals, [{ kind: 'tick' }, { kind: 'tick' }, { kind: 'tick' }]);
      feed.stop();
      mock.timers.tick(POLL_MS * 3);
      assert.equal(signals.length, 3, 'no polling once stopped');
    } finally {
      mock.timers.reset();
    }
  });

  it('passes events on, and after the stream ends polls meanwhile and resumes after the last id', async () => {
    // The reconnect waits the stream's `retry`: on a mock clock, moved by the test.
    mock.timers.enable({ apis: ['setInterval', 'setTimeout'] });
    try {
      await passesEventsOnAndResumes();
    } finally {
      mock.timers.reset();
    }
  });

  async function passesEventsOnAndResumes(): Promise<void> {
    const streams: ReturnType<typeof streamingResponse>[] = [];
    const requests: Array<Record<string, string>> = [];
    const feed = new LiveFeed({
      url: '/events',
      apiKey: 'k',
      fetch: async (_url, init) => {
        requests.push(init!.headers as Record<string, string>);
        const s = streamingResponse();
        streams.push(s);
        return s.response;
      },
    });
    const signals: LiveSignal[] = [];
    const modes: LiveMode[] = [];
    feed.subscribe((s) => signals.push(s));
    feed.onMode((m) => modes.push(m));
    feed.start();
    await settle();
    streams[0]!.push(': heartbeat\n\n' + event(41, 'workspace.created') + event(42, 'workspace.status_changed'));
    await settle();
    assert.deepEqual(
      signals.map((s) => (s.kind === 'event' ? `${s.event.type}#${s.event.event_id}` : s.kind)),
      ['resync', 'workspace.created#41', 'workspace.status_changed#42'],
    );
    assert.equal(requests[0]!['last-event-id'], undefined);

    streams[0]!.push('retry: 10\n\n');
    streams[0]!.end();
    await settle();
    assert.equal(feed.mode, 'polling', 'polls while the stream is down');
    mock.timers.tick(10);
    await settle();
    assert.equal(requests.length, 2, 'reconnected');
    assert.equal(requests[1]!['last-event-id'], '42', 'resumes after the last event seen');
    assert.equal(feed.mode, 'stream');
    assert.deepEqual(modes, ['stream', 'polling', 'stream']);
    assert.equal(signals.at(-1)!.kind, 'resync', 'a reconnect makes the pages read again');
    feed.stop();
  }

  it('tells the session when the key is refused (401) and stops', async () => {
    let refused = '';
    const feed = new LiveFeed({
      url: '/events',
      apiKey: 'k',
      fetch: async () =>
        new Response(JSON.stringify({ ErrorDetails: [{ Reason: 'the API key has been revoked' }] }), { status: 401 }),
      onUnauthorized: (reason) => (refused = reason),
    });
    feed.start();
    await settle();
    await settle();
    assert.equal(refused, 'the API key has been revoked');
  });

  it('says when the server cannot be reached, and reconnects at once when asked to retry', async () => {
    // The back-off after a failure is long (1 s, then more): only retryNow() reconnects within it.
    mock.timers.enable({ apis: ['setInterval', 'setTimeout'] });
    try {
      let down = true;
      let requests = 0;
      const reachable: boolean[] = [];
      const feed = new LiveFeed({
        url: '/events',
        apiKey: 'k',
        fetch: async () => {
          requests += 1;
          if (down) throw new TypeError('fetch failed');
          return streamingResponse().response;
        },
        onReachable: (now) => reachable.push(now),
      });
      const signals: LiveSignal[] = [];
      feed.subscribe((s) => signals.push(s));
      feed.start();
      await settle();
      assert.deepEqual(reachable, [false]);
      assert.equal(feed.mode, 'polling', 'the pages poll meanwhile');

      down = false;
      feed.retryNow();
      await settle();
      assert.equal(requests, 2, 'asked again without waiting for the back-off');
      assert.deepEqual(reachable, [false, true]);
      assert.equal(feed.mode, 'stream');
      assert.deepEqual(
        signals.map((s) => s.kind),
        ['tick', 'resync'],
        'the pages read again at once, and again on the stream',
      );
      feed.retryNow();
      await settle();
      assert.equal(requests, 2, 'a live stream is left alone');
      feed.stop();
    } finally {
      mock.timers.reset();
    }
  });
});
