import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { API_PREFIX, resultOf, type ApiResponse } from '../src/client/index.js';
import { MAX_ERROR_DETAILS } from '../src/http/envelope.js';
import { ALL_ERRORS_MAX_CHARS } from '../src/http/validation.js';
import { assertError } from './helpers/assert.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';

const API = API_PREFIX;
/** Just under the default body limit (1 MiB). */
const MIB = 1_000_000;
/** An answer to a refused request is a few hundred bytes; a few KiB at the very most. */
const SMALL_ANSWER = 8 * 1024;
/** Larger answers are measured, not read: 20 details, each naming the values an enum allows, are less. */
const READ_LIMIT = 64 * 1024;
// Past these the old validation was still at work (a 1 MiB list took over 30 s).
const ANSWER_DEADLINE_MS = 15_000;
const HEALTH_DEADLINE_MS = 1_000;

/** A list of `item` about `bytes` long as JSON. */
function listOf(item: unknown, bytes: number): unknown[] {
  return Array.from({ length: Math.floor(bytes / (JSON.stringify(item).length + 1)) }, () => item);
}

interface Answer {
  response: ApiResponse<unknown>;
  bytes: number;
}

describe(`the cost of refusing a request is bounded (${storeName})`, () => {
  let server: TestServer;
  let viewerKey: string;

  /** Sends a body; an answer too large to be right is measured, not read. */
  async function send(method: 'POST' | 'PUT', path: string, body: unknown): Promise<Answer> {
    const res = await request(`${server.url}${API}${path}`, {
      method,
      headers: { 'x-api-key': viewerKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
    });
    const bytes = Number(res.headers['content-length']);
    if (!(bytes <= READ_LIMIT)) {
      await res.body.dump({ limit: 0 }).catch(() => undefined);
      assert.fail(`a ${bytes}-byte answer (HTTP ${res.statusCode})`);
    }
    const text = await res.body.text();
    return { response: { status: res.statusCode, headers: res.headers, body: JSON.parse(text) }, bytes };
  }

  /** How long each GET /healthz took, one after another, until `running` settles. */
  async function healthWhile(running: Promise<unknown>): Promise<number[]> {
    let settled = false;
    void running.then(
      () => (settled = true),
      () => (settled = true),
    );
    const took: number[] = [];
    do {
      const started = performance.now();
      const res = await request(`${server.url}/healthz`, { signal: AbortSignal.timeout(HEALTH_DEADLINE_MS * 5) }).catch(
        () => undefined,
      );
      await res?.body.dump();
      took.push(res?.statusCode === 200 ? performance.now() - started : Infinity);
    } while (!settled);
    return took;
  }

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0', ACACIA_RATE_LIMIT: '0' });
    viewerKey = resultOf(await server.client.apiKeys.create({ key_name: 'viewer', role: 'viewer' })).plaintext_key!;
  });
  after(() => server.close());

  it('answers a viewer key’s 1 MiB event_types list with one small 400, and /healthz meanwhile', async () => {
    const posting = send('POST', '/webhooks', { url: 'http://203.0.113.9/hook', event_types: listOf('nope', MIB) });
    const health = await healthWhile(posting);
    const { response, bytes } = await posting;
    assertError(response, 400, 'Bad-Request', 'event_types');
    assert.ok(bytes < SMALL_ANSWER, `${bytes} bytes`);
    assert.ok(Math.max(...health) < HEALTH_DEADLINE_MS, `GET /healthz took ${health.map(Math.round).join(', ')} ms`);
  });

  it('answers four 1 MiB addons lists at once with small 400s, and /healthz meanwhile', async () => {
    const addons = listOf({ addons_id: 7, enable: 'yes' }, MIB);
    const workspaces = '/workgroups/wg-x/workspaces';
    const sending = Promise.all([
      send('POST', workspaces, { addons }),
      send('POST', workspaces, { name: 'w', solution_install_request: { addons } }),
      send('PUT', `${workspaces}/ws-x`, { addons }),
      send('PUT', `${workspaces}/ws-y`, { addons }),
    ]);
    const health = await healthWhile(sending);
    const [created, solution, updated, again] = await sending;
    for (const { bytes } of [created, solution, updated, again]) assert.ok(bytes < SMALL_ANSWER, `${bytes} bytes`);
    assertError(created.response, 400, 'Bad-Request', 'addons');
    assertError(solution.response, 400, 'Bad-Request', 'solution_install_request.addons');
    assertError(updated.response, 400, 'Bad-Request', 'addons');
    assertError(again.response, 400, 'Bad-Request', 'addons');
    assert.ok(Math.max(...health) < HEALTH_DEADLINE_MS, `GET /healthz took ${health.map(Math.round).join(', ')} ms`);
  });

  it('lists every problem of a small body, at most 20, the last saying how many more there are', async () => {
    const few = await send('POST', '/webhooks', { url: 'ftp://203.0.113.9/hook', event_types: ['nope'], x: 1 });
    assert.deepEqual(few.response.body.ErrorDetails.map((d) => d.FieldName).sort(), ['event_types[0]', 'x']);

    // maxItems (25), then each of the 30 values: 31 problems.
    const bad = Array.from({ length: 30 }, (_, i) => `nope-${i}`);
    const many = (await send('POST', '/webhooks', { url: 'http://203.0.113.9/hook', event_types: bad })).response;
    assertError(many, 400, 'Bad-Request', 'event_types');
    const details = many.body.ErrorDetails;
    assert.equal(details.length, MAX_ERROR_DETAILS);
    assert.deepEqual(
      details.slice(1, -1).map((d) => d.FieldName),
      bad.slice(0, MAX_ERROR_DETAILS - 2).map((_, i) => `event_types[${i}]`),
    );
    const last = assertError(many, 400, 'Bad-Request', `event_types[${MAX_ERROR_DETAILS - 2}]`);
    assert.equal(last, details.at(-1));
    assert.match(last.Reason, /the first of 12 more problems, not listed \(an answer lists at most 20\)/);
  });

  it('names the first problem only of a body past the all-errors bound', async () => {
    const body = { url: 'x'.repeat(ALL_ERRORS_MAX_CHARS), event_types: ['nope'] };
    const { response } = await send('POST', '/webhooks', body);
    assertError(response, 400, 'Bad-Request', 'url');
    assert.equal(response.body.ErrorDetails.length, 1, JSON.stringify(response.body.ErrorDetails));
  });
});
