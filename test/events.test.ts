import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_PREFIX, resultOf, type AcaciaClient, type WorkspaceRecord } from '../src/client/index.js';
import type { EventRecord } from '../src/schemas/event.js';
import { assertError, assertOk } from './helpers/assert.js';
import { openEventStream, type OpenStream } from './helpers/event-stream.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { newWorkgroup, waitForStatus } from './helpers/workspaces.js';

const EVENTS = `${API_PREFIX}/events`;

/** Every event the client may read after `since`, through the JSON pages. */
async function allEvents(c: AcaciaClient, query: Record<string, string> = {}, since = 0): Promise<EventRecord[]> {
  return assertOk(await c.request<EventRecord[]>('GET', EVENTS, { query: { since, limit: 1000, ...query } }));
}

const statusOf = (e: EventRecord) => (e.data as WorkspaceRecord).status;
const keyOf = (c: AcaciaClient) => (c as unknown as { options: { apiKey: string } }).options.apiKey;

describe(`event stream (${storeName})`, () => {
  let server: TestServer;
  let orgs = 0;
  const streams: OpenStream[] = [];
  const open = async (c: AcaciaClient, opts: Parameters<typeof openEventStream>[2] = {}) => {
    const s = await openEventStream(server.url, keyOf(c), opts);
    streams.push(s);
    return s;
  };
  const newOrg = () => server.orgClient(`events-${++orgs}`);

  before(async () => {
    server = await startTestServer({
      ACACIA_SIM_SPEED: '0',
      ACACIA_CLOCK: 'manual',
      ACACIA_EVENTS_HEARTBEAT_SECONDS: '1',
    });
  });
  after(async () => {
    for (const s of streams) s.close();
    await server.close();
  });

  it('a stream opened before a workspace is created sees it created, Creating, then Active, in order', async () => {
    const c = await newOrg();
    const wg = await newWorkgroup(c);
    const s = await open(c, { query: { type: 'workspace.created,workspace.status_changed' } });
    assert.equal(s.status, 200);
    assert.match(String(s.headers['content-type']), /^text\/event-stream/);
    const ws = resultOf(await c.workspaces.create(wg, { name: 'followed' })).workspace_id!;
    await s.until((st) => st.events.some((e) => e.type === 'workspace.status_changed' && statusOf(e) === 'Active'));
    const seen = s.events.filter((e) => e.resource_id === ws).map((e) => [e.type, statusOf(e)]);
    assert.deepEqual(seen, [
      ['workspace.created', 'Creating'],
      ['workspace.status_changed', 'Active'],
    ]);
    assert.deepEqual(s.names.slice(-2), ['workspace.created', 'workspace.status_changed'], 'event: is the type');
    const ids = s.events.map((e) => e.event_id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      'ids grow',
    );
    const created = s.events[0]!;
    assert.equal(created.resource_kind, 'workspace');
    assert.equal(created.workgroup_id, wg);
    assert.equal(created.workspace_id, ws);
    assert.match(created.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal((created.data as WorkspaceRecord).workspace_id, ws, 'data is the record as the API shows it');
    assert.equal(s.retry, 2000, 'retry: is sent once at the start');
  });

  it('reconnecting with Last-Event-ID receives exactly the events missed, and ?since= does the same', async () => {
    const c = await newOrg();
    const wg = await newWorkgroup(c);
    const first = await open(c);
    const ws = resultOf(await c.workspaces.create(wg, { name: 'resumed' })).workspace_id!;
    await waitForStatus(c, wg, ws, 'Active');
    await first.until((st) => st.events.some((e) => e.type === 'workspace.status_changed'));
    first.close();
    const lastSeen = first.events.at(-1)!.event_id;
    // Changes while nobody listens.
    assertOk(await c.workspaces.pause(wg, ws));
    await waitForStatus(c, wg, ws, 'Stopped');
    assertOk(await c.workgroups.update(wg, { workgroup_name: 'renamed' }));
    const missed = (await allEvents(c, {}, lastSeen)).map((e) => e.event_id);
    assert.ok(missed.length >= 4, `pause, its operation, Stopped and the rename: ${missed.length}`);

    const again = await open(c, { lastEventId: String(lastSeen) });
    await again.until((st) => st.events.length >= missed.length);
    const bySince = await open(c, { query: { since: String(lastSeen) } });
    await bySince.until((st) => st.events.length >= missed.length);
    // One more change reaches both, right after the missed ones.
    assertOk(await c.workgroups.update(wg, { workgroup_name: 'renamed-again' }));
    await again.until((st) => st.events.length === missed.length + 1);
    await bySince.until((st) => st.events.length === missed.length + 1);
    const newest = (await allEvents(c, {}, missed.at(-1)!)).map((e) => e.event_id);
    assert.equal(newest.length, 1);
    assert.deepEqual(
      again.events.map((e) => e.event_id),
      [...missed, ...newest],
    );
    assert.deepEqual(
      bySince.events.map((e) => e.event_id),
      [...missed, ...newest],
    );
    assert.equal(first.events.at(-1)!.event_id < missed[0]!, true);
  });

  it("another organisation's stream and pages see none of its events", async () => {
    const c = await newOrg();
    const other = await newOrg();
    const theirs = await open(other);
    const ours = await open(c);
    const wg = await newWorkgroup(c);
    await ours.until((st) => st.events.some((e) => e.resource_id === wg));
    // A change of the other organisation arrives after everything above was written.
    const otherWg = await newWorkgroup(other);
    await theirs.until((st) => st.events.length >= 1);
    assert.deepEqual(
      theirs.events.map((e) => [e.type, e.resource_id]),
      [['workgroup.created', otherWg]],
    );
    const pages = await allEvents(other);
    assert.deepEqual(
      pages.map((e) => e.resource_id),
      [otherWg],
    );
    assert.ok(pages.every((e) => e.org_id === theirs.events[0]!.org_id));
  });

  it('a key scoped to a workgroup sees only the events of that workgroup', async () => {
    const org = `events-${++orgs}`;
    const admin = await server.orgClient(org);
    const mine = await newWorkgroup(admin);
    const notMine = await newWorkgroup(admin);
    const scoped = await server.orgClient(org, { role: 'workgroup-admin', workgroupIds: [mine] });
    const viewer = await server.orgClient(org, { role: 'viewer' });
    const s = await open(scoped);
    assertOk(await admin.workgroups.update(notMine, { workgroup_name: 'not-mine' }));
    assertOk(await admin.workgroups.update(mine, { workgroup_name: 'mine' }));
    await s.until((st) => st.events.length >= 1);
    assert.deepEqual(
      s.events.map((e) => [e.type, e.resource_id]),
      [['workgroup.updated', mine]],
    );
    const scopedPage = await allEvents(scoped);
    assert.ok(scopedPage.length >= 2);
    assert.ok(scopedPage.every((e) => e.workgroup_id === mine));
    const all = await allEvents(viewer);
    assert.ok(
      all.some((e) => e.workgroup_id === notMine),
      'a viewer reads the whole organisation',
    );
  });

  it('filters by resource_id, workgroup_id and type (repeated or comma-separated)', async () => {
    const c = await newOrg();
    const a = await newWorkgroup(c);
    const b = await newWorkgroup(c);
    assertOk(await c.workgroups.update(a, { workgroup_name: 'a2' }));
    assertOk(await c.workgroups.update(b, { workgroup_name: 'b2' }));
    const byResource = await allEvents(c, { resource_id: a });
    assert.deepEqual(
      byResource.map((e) => e.type),
      ['workgroup.created', 'workgroup.updated'],
    );
    assert.deepEqual(
      (await allEvents(c, { workgroup_id: b })).map((e) => [e.type, e.resource_id]),
      [
        ['workgroup.created', b],
        ['workgroup.updated', b],
      ],
    );
    assert.deepEqual(
      (await allEvents(c, { type: 'workgroup.updated' })).map((e) => e.resource_id),
      [a, b],
    );
    const repeated = await fetch(
      `${server.url}${EVENTS}?type=workgroup.updated&type=workgroup.created&resource_id=${b}`,
      {
        headers: { 'x-api-key': keyOf(c) },
      },
    );
    const body = (await repeated.json()) as { Result: EventRecord[] };
    assert.deepEqual(
      body.Result.map((e) => e.type),
      ['workgroup.created', 'workgroup.updated'],
    );
    const s = await open(c, { query: { resource_id: a, since: '0', type: 'workgroup.updated' } });
    await s.until((st) => st.events.length >= 1);
    assert.deepEqual(
      s.events.map((e) => [e.type, e.resource_id]),
      [['workgroup.updated', a]],
    );
  });

  it('an allow-list entry is created, updated and deleted as events of its workgroup, with its record', async () => {
    const c = await newOrg();
    const wg = await newWorkgroup(c);
    const entry = assertOk(await c.allowList.create(wg, { cidr: '198.51.100.0/24', note: 'office' }));
    assertOk(await c.allowList.update(wg, entry.id, { cidr: '198.51.100.0/24', note: 'office, floor 2' }));
    assertOk(await c.allowList.delete(wg, entry.id));
    const events = await allEvents(c, { resource_id: entry.id });
    assert.deepEqual(
      events.map((e) => [e.type, e.resource_kind, e.workgroup_id]),
      [
        ['allow_list_entry.created', 'allow_list_entry', wg],
        ['allow_list_entry.updated', 'allow_list_entry', wg],
        ['allow_list_entry.deleted', 'allow_list_entry', wg],
      ],
    );
    assert.deepEqual(events[0]!.data, {
      id: entry.id,
      cidr: '198.51.100.0/24',
      note: 'office',
      created_at: entry.created_at,
    });
    assert.equal((events[1]!.data as { note: string }).note, 'office, floor 2');
    assert.deepEqual(events[2]!.data, { id: entry.id });
    // A refused change (a duplicate range) writes no event.
    assertOk(await c.allowList.create(wg, { cidr: '203.0.113.0/24' }));
    assertError(await c.allowList.create(wg, { cidr: '203.0.113.0/24' }), 409, 'Bad-Request', 'cidr');
    assert.equal((await allEvents(c, { type: 'allow_list_entry.created' })).length, 2);
  });

  it('pages with limit and X-Next-Cursor (the since of the next page)', async () => {
    const c = await newOrg();
    for (let i = 0; i < 3; i++) await newWorkgroup(c);
    const all = await allEvents(c);
    assert.equal(all.length, 3);
    const pages: EventRecord[][] = [];
    let since = '0';
    for (;;) {
      const res = await c.request<EventRecord[]>('GET', EVENTS, { query: { format: 'json', since, limit: 2 } });
      pages.push(assertOk(res));
      const next = res.headers['x-next-cursor'];
      if (next === undefined) break;
      since = String(next);
    }
    assert.deepEqual(
      pages.map((p) => p.length),
      [2, 1],
    );
    assert.deepEqual(pages.flat(), all);
    // Without since, a page starts at the beginning (of what is kept).
    assert.deepEqual(assertOk(await c.request<EventRecord[]>('GET', EVENTS)), all);
  });

  it('sends heartbeat comments while idle, and format=sse streams without Accept', async () => {
    const c = await newOrg();
    const res = await fetch(`${server.url}${EVENTS}?format=sse`, { headers: { 'x-api-key': keyOf(c) } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    await res.body?.cancel();
    const s = await open(c);
    await s.until((st) => st.comments >= 1, 5000);
    assert.equal(s.events.length, 0);
  });

  it('refuses a bad since, limit, type or Last-Event-ID naming the field, and a missing key', async () => {
    const c = await newOrg();
    assertError(await c.request('GET', EVENTS, { query: { since: 'x' } }), 400, 'Bad-Request', 'since');
    assertError(await c.request('GET', EVENTS, { query: { since: -1 } }), 400, 'Bad-Request', 'since');
    assertError(await c.request('GET', EVENTS, { query: { limit: 0 } }), 400, 'Bad-Request', 'limit');
    assertError(await c.request('GET', EVENTS, { query: { limit: 1001 } }), 400, 'Bad-Request', 'limit');
    assertError(await c.request('GET', EVENTS, { query: { type: 'workspace.exploded' } }), 400, 'Bad-Request', 'type');
    assertError(await c.request('GET', EVENTS, { query: { format: 'xml' } }), 400, 'Bad-Request', 'format');
    const sse = { accept: 'text/event-stream' };
    assertError(
      await c.request('GET', EVENTS, { headers: { ...sse, 'last-event-id': 'abc' } }),
      400,
      'Bad-Request',
      'Last-Event-ID',
    );
    assertError(await c.request('GET', EVENTS, { headers: sse, query: { type: 'nope' } }), 400, 'Bad-Request', 'type');
    assertError(await c.withKey(undefined).request('GET', EVENTS, { headers: sse }), 401, 'Unauthorized', 'x-api-key');
  });

  // Last: it moves the shared manual clock a week on.
  it('prunes events past the retention (168 hours) on the engine clock', async () => {
    const c = await newOrg();
    const wg = await newWorkgroup(c);
    assert.equal((await allEvents(c)).length, 1);
    assertOk(await c.moveClock({ advance_seconds: 167 * 3600 }));
    assert.equal((await allEvents(c)).length, 1, 'kept for its retention');
    assertOk(await c.workgroups.update(wg, { workgroup_name: 'later' }));
    assertOk(await c.moveClock({ advance_seconds: 2 * 3600 }));
    assert.deepEqual(
      (await allEvents(c)).map((e) => e.type),
      ['workgroup.updated'],
      'the older event is gone, the newer kept',
    );
  });
});
