import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getDefaultHighWaterMark } from 'node:stream';
import { setTimeout as pause } from 'node:timers/promises';
import { API_PREFIX, type AcaciaClient, type ApiResponse } from '../src/client/index.js';
import { ENABLE_CONFIGURATION_MAX_BYTES } from '../src/domain/addon-refs.js';
import { defaultCatalog } from '../src/domain/catalog.js';
import type { EventRecord } from '../src/schemas/event.js';
import { assertError, assertOk } from './helpers/assert.js';
import { holdEventStream, openEventStream, type HeldStream, type OpenStream } from './helpers/event-stream.js';
import { sample, scrape } from './helpers/metrics.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const EVENTS = `${API_PREFIX}/events`;
const PER_KEY = 3;
const PER_ORGANISATION = 5;
const STALL_SECONDS = 30;

const keyOf = (c: AcaciaClient) => (c as unknown as { options: { apiKey: string } }).options.apiKey;
/** The bytes the server writes for one event (the stream is not chunked: HTTP/1.0). */
const messageBytes = (e: EventRecord) =>
  Buffer.byteLength(`id: ${e.event_id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);

describe(`event streams: back-pressure, stalled clients, keys, limits (${storeName})`, () => {
  let server: TestServer;
  let orgs = 0;
  const streams: Array<OpenStream | HeldStream> = [];
  const newOrg = () => server.orgClient(`streams-${++orgs}`);
  const open = async (key: string, opts: Parameters<typeof openEventStream>[2] = {}) => {
    const s = await openEventStream(server.url, key, opts);
    streams.push(s);
    return s;
  };
  const hold = async (key: string) => {
    const s = await holdEventStream(server.url, key);
    streams.push(s);
    return s;
  };
  const metric = async (series: string) => sample(await scrape(server.url), series);
  /** Waits until the metric satisfies pred (it is read on each look), failing after timeoutMs. */
  const metricUntil = async (series: string, pred: (n: number) => boolean, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    let n = await metric(series);
    while (!pred(n)) {
      if (Date.now() > deadline) assert.fail(`${series} is still ${n} after ${timeoutMs} ms`);
      await pause(20);
      n = await metric(series);
    }
    return n;
  };
  /** The org's events after `since`, from the table (JSON pages, followed to the last). */
  const eventsAfter = async (c: AcaciaClient, since: number): Promise<EventRecord[]> => {
    const all: EventRecord[] = [];
    let cursor: string | undefined = String(since);
    while (cursor !== undefined) {
      const page: ApiResponse<EventRecord[]> = await c.request<EventRecord[]>('GET', EVENTS, {
        query: { since: Number(cursor), limit: 1000 },
      });
      all.push(...assertOk(page));
      cursor = page.headers['x-next-cursor'] as string | undefined;
    }
    return all;
  };
  const newest = async (c: AcaciaClient) => (await eventsAfter(c, 0)).at(-1)?.event_id ?? 0;

  /**
   * A workspace whose record, and so each of its events, is about 60 KB (every catalog
   * add-on's configuration, each near its cap): a few dozen changes fill what the kernel
   * buffers for a connection.
   */
  const bigWorkspace = async (c: AcaciaClient) => {
    const wg = await newWorkgroup(c);
    const ws = await activeWorkspace(c, wg, {
      name: 'big',
      addons: defaultCatalog.addons.map((a) => ({
        addons_id: a.addons_id,
        enable: false,
        enable_configuration: 'x'.repeat(ENABLE_CONFIGURATION_MAX_BYTES - 2),
      })),
    });
    let renames = 0;
    const rename = async (times: number) => {
      for (let i = 0; i < times; i++)
        assertOk(await c.workspaces.update(wg, ws.workspace_id!, { workspace_name: `big-${++renames}` }));
    };
    return { rename };
  };

  before(async () => {
    server = await startTestServer({
      ACACIA_SIM_SPEED: '0',
      ACACIA_CLOCK: 'manual',
      ACACIA_EVENTS_STALL_SECONDS: String(STALL_SECONDS),
      ACACIA_EVENT_STREAMS_PER_KEY: String(PER_KEY),
      ACACIA_EVENT_STREAMS_PER_ORG: String(PER_ORGANISATION),
    });
  });
  const end = (s: OpenStream | HeldStream) => ('close' in s ? s.close() : s.destroy());
  after(async () => {
    streams.forEach(end);
    await server.close();
  });
  /** Ends the test's streams and waits until the server has seen them go. */
  const closeAll = async (of: Array<OpenStream | HeldStream>) => {
    of.forEach(end);
    await metricUntil('acacia_event_streams_open', (n) => n === 0);
  };

  it('a client that does not read holds at most the high-water mark and one event; it loses nothing', async () => {
    const c = await newOrg();
    const { rename } = await bigWorkspace(c);
    const from = await newest(c);
    const held = await Promise.all(Array.from({ length: PER_KEY }, () => hold(keyOf(c))));
    // Far more than the kernel buffers for a connection (a few MB on loopback).
    await rename(150);
    await metricUntil('acacia_event_streams_blocked', (n) => n === PER_KEY);

    const written = await eventsAfter(c, from);
    const largest = Math.max(...written.map(messageBytes));
    assert.ok(largest > 60_000, `each event carries the add-on's configuration: ${largest} bytes`);
    // The response's high-water mark is its socket's: Node's default for a stream of bytes.
    const bound = getDefaultHighWaterMark(false) + largest;
    const text = await scrape(server.url);
    const buffered = sample(text, 'acacia_event_stream_buffered_bytes_max');
    assert.ok(buffered > 0 && buffered <= bound, `a stream holds ${buffered} bytes; at most ${bound}`);

    // Changes while every client is behind are not read for them.
    await rename(30);
    assert.equal(await metric('acacia_event_streams_blocked'), PER_KEY);
    assert.ok((await metric('acacia_event_stream_buffered_bytes_max')) <= bound);

    // A client that reads again gets every event once, in order, on the same connection.
    const all = await eventsAfter(c, from);
    assert.equal(all.length, 180);
    const reader = held[0]!;
    reader.resume();
    await reader.until((events) => events.at(-1)?.event_id === all.at(-1)!.event_id, 30_000);
    assert.deepEqual(
      reader.events.map((e) => e.event_id),
      all.map((e) => e.event_id),
    );
    await closeAll(held);
  });

  it(`a client that takes nothing for ${STALL_SECONDS} s (server clock) is cut off, loses nothing`, async () => {
    const c = await newOrg();
    const { rename } = await bigWorkspace(c);
    const from = await newest(c);
    const held = await hold(keyOf(c));
    await rename(120);
    await metricUntil('acacia_event_streams_blocked', (n) => n === 1);
    const stalled = 'acacia_event_streams_ended_total{reason="stalled"}';
    const before = await metric(stalled);

    assertOk(await c.moveClock({ advance_seconds: STALL_SECONDS - 1 }));
    assert.equal(await metric('acacia_event_streams_open'), 1, 'not yet');
    assert.equal(await metric(stalled), before);
    assertOk(await c.moveClock({ advance_seconds: 1 }));
    assert.equal(await metric(stalled), before + 1, 'cut off as the clock reaches the stall time');
    assert.equal(await metric('acacia_event_streams_open'), 0);

    // The client finds its connection gone, and resumes after the last event it has whole.
    held.resume();
    await held.closed;
    const got = held.events.map((e) => e.event_id);
    const all = (await eventsAfter(c, from)).map((e) => e.event_id);
    assert.ok(got.length < all.length, `the client had ${got.length} of ${all.length}`);
    const again = await open(keyOf(c), { lastEventId: String(got.at(-1) ?? from) });
    await again.until((s) => s.events.at(-1)?.event_id === all.at(-1), 30_000);
    assert.deepEqual([...got, ...again.events.map((e) => e.event_id)], all);
    await closeAll([again]);
  });

  it('a stream ends as its key is revoked, says why, and receives no later event', async () => {
    const admin = await newOrg();
    const key = assertOk(await admin.apiKeys.create({ key_name: 'watcher', role: 'viewer' })).plaintext_key!;
    const s = await open(key);
    const first = await newWorkgroup(admin);
    await s.until((st) => st.events.some((e) => e.resource_id === first));
    const ended = 'acacia_event_streams_ended_total{reason="unauthenticated"}';
    const before = await metric(ended);

    assertOk(await admin.apiKeys.revoke('watcher'));
    // Well before a heartbeat (15 s) would look at the key: the revocation wakes the stream.
    await s.until((st) => st.closed, 5000);
    assert.deepEqual(s.errors, ['the API key has been revoked']);
    assert.equal(await metric(ended), before + 1);
    const later = await newWorkgroup(admin);
    assert.ok((await eventsAfter(admin, 0)).some((e) => e.resource_id === later));
    assert.deepEqual(
      s.events.map((e) => e.resource_id),
      [first],
    );
    assertError(await admin.withKey(key).request('GET', EVENTS), 401, 'Unauthorized', 'x-api-key');
  });

  it("a stream ends at its key's expiry on the server clock, and receives no later event", async () => {
    const admin = await newOrg();
    const key = assertOk(
      await admin.apiKeys.create({ key_name: 'short-lived', role: 'viewer', life_time_in_seconds: 3600 }),
    ).plaintext_key!;
    const s = await open(key);
    const first = await newWorkgroup(admin);
    await s.until((st) => st.events.some((e) => e.resource_id === first));

    assertOk(await admin.moveClock({ advance_seconds: 3599 }));
    const second = await newWorkgroup(admin);
    await s.until((st) => st.events.some((e) => e.resource_id === second));
    assert.equal(s.closed, false, 'open until the key expires');

    assertOk(await admin.moveClock({ advance_seconds: 1 }));
    await s.until((st) => st.closed, 5000);
    assert.deepEqual(s.errors, ['the API key has expired']);
    await newWorkgroup(admin);
    assert.deepEqual(
      s.events.map((e) => e.resource_id),
      [first, second],
    );
  });

  it(`${PER_KEY} streams per key, ${PER_ORGANISATION} per organisation, even at once; closing frees one`, async () => {
    const org = `streams-${++orgs}`;
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => server.orgClient(org, { role: 'viewer' })));
    const opened = await Promise.all(Array.from({ length: PER_KEY + 1 }, () => open(keyOf(a!))));
    const refused = opened.filter((s) => s.status !== 200);
    assert.equal(opened.filter((s) => s.status === 200).length, PER_KEY);
    assert.equal(refused.length, 1);
    const refusal = refused[0]!;
    assert.equal(refusal.status, 429);
    assert.equal(refusal.headers['retry-after'], '5');
    const detail = (refusal.body as { ErrorDetails: Array<{ Type: string; FieldName: string; Reason: string }> })
      .ErrorDetails[0]!;
    assert.deepEqual([detail.Type, detail.FieldName], ['Quota-Exceed', 'x-api-key']);
    assert.match(detail.Reason, new RegExp(`API key has ${PER_KEY} event streams open`));

    // Another key of the organisation still opens streams, up to the organisation's limit.
    const others = await Promise.all([open(keyOf(b!)), open(keyOf(b!))]);
    assert.deepEqual(
      others.map((s) => s.status),
      [200, 200],
    );
    const third = await open(keyOf(c!));
    assert.equal(third.status, 429);
    const orgDetail = (third.body as { ErrorDetails: Array<{ Type: string; FieldName: string; Reason: string }> })
      .ErrorDetails[0]!;
    assert.deepEqual([orgDetail.Type, orgDetail.FieldName], ['Quota-Exceed', 'x-api-key']);
    assert.match(orgDetail.Reason, new RegExp(`organisation has ${PER_ORGANISATION} event streams open`));
    // Another organisation is not held back by this one.
    assert.equal((await open(keyOf(await newOrg()))).status, 200);

    // A stream that closes frees its slot.
    const open0 = await metric('acacia_event_streams_open');
    opened.find((s) => s.status === 200)!.close();
    await metricUntil('acacia_event_streams_open', (n) => n === open0 - 1);
    assert.equal((await open(keyOf(a!))).status, 200);
    assert.equal((await open(keyOf(a!))).status, 429);
    await closeAll(streams.filter((s): s is OpenStream => 'status' in s && s.status === 200));
  });
});
