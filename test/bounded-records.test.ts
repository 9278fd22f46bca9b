import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_PREFIX, resultOf } from '../src/client/index.js';
import { defaultCatalog } from '../src/domain/catalog.js';
import { ENABLE_CONFIGURATION_MAX_BYTES } from '../src/domain/addon-refs.js';
import { EVENT_READ_BUDGET_BYTES } from '../src/domain/event-feed.js';
import type { EventRecord } from '../src/schemas/event.js';
import { assertError, assertOk } from './helpers/assert.js';
import { openEventStream } from './helpers/event-stream.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

const [graphstudio, insights, graphql, copilot] = defaultCatalog.addons.map((a) => a.addons_id) as [
  string,
  string,
  string,
  string,
];

/** An object whose JSON is exactly `bytes` long. */
function configOf(bytes: number): Record<string, string> {
  const shell = JSON.stringify({ v: '' }).length;
  return { v: 'x'.repeat(bytes - shell) };
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Every catalog add-on, disabled, with a configuration at the cap: a workspace record at its largest. */
const largestAddons = () =>
  [graphstudio, insights, graphql, copilot].map((addons_id) => ({
    addons_id,
    enable: false,
    enable_configuration: configOf(ENABLE_CONFIGURATION_MAX_BYTES),
  }));

const EVENTS = `${API_PREFIX}/events`;

describe(`what records and events hold is bounded (${storeName})`, () => {
  let server: TestServer;
  let orgs = 0;
  const newOrg = () => server.orgClient(`bounded-${++orgs}`);

  before(async () => {
    server = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_SIM_SPEED: '0' });
  });
  after(() => server.close());

  it("refuses an add-on's enable_configuration over 16 KiB as JSON, in either form, and changes nothing", async () => {
    const c = await newOrg();
    const wg = await newWorkgroup(c);
    assert.equal(bytesOf(configOf(ENABLE_CONFIGURATION_MAX_BYTES)), ENABLE_CONFIGURATION_MAX_BYTES);
    // A disabled add-on needs no installation: any catalog add-on may be named.
    const atCap = { addons_id: graphql, enable: false, enable_configuration: configOf(ENABLE_CONFIGURATION_MAX_BYTES) };
    const ws = await activeWorkspace(c, wg, { name: 'capped', addons: [atCap] });
    assert.deepEqual(ws.addons![0]!.enable_configuration, atCap.enable_configuration);

    const over = configOf(ENABLE_CONFIGURATION_MAX_BYTES + 1);
    assertError(
      await c.workspaces.update(wg, ws.workspace_id!, {
        addons: [{ addons_id: graphql, enable: false, enable_configuration: over }],
      }),
      400,
      'Bad-Request',
      'addons[0].enable_configuration',
    );
    // The string form counts its JSON too: quotes and escapes included.
    const quoted = '"'.repeat(ENABLE_CONFIGURATION_MAX_BYTES / 2);
    assertError(
      await c.workspaces.update(wg, ws.workspace_id!, {
        addons: [
          { addons_id: graphql, enable: false },
          { addons_id: insights, enable: false, enable_configuration: quoted },
        ],
      }),
      400,
      'Bad-Request',
      'addons[1].enable_configuration',
    );
    assertError(
      await c.workspaces.create(wg, {
        name: 'solution',
        solution_install_request: { addons: [{ addons_id: insights, enable: false, enable_configuration: over }] },
      }),
      400,
      'Bad-Request',
      'solution_install_request.addons[0].enable_configuration',
    );
    const now = assertOk(await c.workspaces.get(wg, ws.workspace_id!));
    assert.equal(now.version_number, ws.version_number, 'the refused updates changed nothing');
    assert.deepEqual(now.addons![0]!.enable_configuration, atCap.enable_configuration);
    const names = assertOk(await c.workspaces.list(wg)).map((w) => w.name);
    assert.deepEqual(names, ['capped']);
  });

  it('refuses an add-on named twice in one request, across addons and the solution request too', async () => {
    const c = await newOrg();
    const wg = await newWorkgroup(c);
    assertError(
      await c.workspaces.create(wg, {
        name: 'twice',
        addons: [
          { addons_id: copilot, enable: false },
          { addons_id: copilot, enable: false },
        ],
      }),
      400,
      'Bad-Request',
      'addons[1].addons_id',
    );
    assertError(
      await c.workspaces.create(wg, {
        name: 'twice',
        addons: [{ addons_id: graphstudio, enable: false }],
        solution_install_request: { addons: [{ addons_id: graphstudio, enable: false }] },
      }),
      400,
      'Bad-Request',
      'solution_install_request.addons[0].addons_id',
    );
    const ws = await activeWorkspace(c, wg, {
      name: 'once',
      addons: [{ addons_id: graphstudio, enable: false }],
      solution_install_request: { addons: [{ addons_id: copilot, enable: false }] },
    });
    assert.deepEqual(
      ws.addons!.map((a) => a.addons_id),
      [graphstudio, copilot],
    );
  });

  it("a workgroup's and a database's events carry their own record, not their workspaces'", async () => {
    const c = await newOrg();
    const wg = await newWorkgroup(c);
    const addons = largestAddons();
    const first = await activeWorkspace(c, wg, { name: 'first', addons });
    await activeWorkspace(c, wg, { name: 'second', addons });
    const full = assertOk(await c.workgroups.get(wg));
    assert.ok(bytesOf(full) > 4 * 4 * ENABLE_CONFIGURATION_MAX_BYTES, 'the record shows each workspace twice');

    const events = EVENTS;
    const before = assertOk(await c.request<EventRecord[]>('GET', events, { query: { limit: 1000 } }));
    const since = Math.max(0, ...before.map((e) => e.event_id));
    assertOk(await c.allowList.enable(wg));
    assertOk(await c.databases.rename(wg, first.database_id!, { tg_database_name: 'renamed' }));
    const after = assertOk(await c.request<EventRecord[]>('GET', events, { query: { since, limit: 1000 } }));
    const workgroupEvent = after.find((e) => e.type === 'workgroup.updated')!;
    const data = workgroupEvent.data as Record<string, unknown>;
    assert.equal(data.workgroup_id, wg);
    assert.equal(data.enable_allow_list, true);
    assert.equal('workspaces' in data, false);
    assert.equal('tg_databases' in data, false);
    assert.equal('is_current_ip_allowed' in data, false, 'it depends on who asks');
    assert.ok(bytesOf(workgroupEvent) < 2048, `a workgroup event is small: ${bytesOf(workgroupEvent)} bytes`);

    const databaseEvent = after.find((e) => e.type === 'database.updated')!;
    const db = databaseEvent.data as Record<string, unknown>;
    assert.equal(db.name, 'renamed');
    assert.equal('workspaces' in db, false);
    assert.ok(bytesOf(databaseEvent) < 2048, `a database event is small: ${bytesOf(databaseEvent)} bytes`);
    // The responses keep the contract's shape.
    const renamed = resultOf(await c.databases.get(wg, first.database_id!));
    assert.equal(renamed.workspaces.length, 1);
  });

  it('a read of events returns about 4 MiB of data at most, and says more follow; the next read goes on', async () => {
    const c = await newOrg();
    const wg = await newWorkgroup(c);
    const ws = await activeWorkspace(c, wg, { name: 'large', addons: largestAddons() });
    const before = assertOk(await c.request<EventRecord[]>('GET', EVENTS, { query: { limit: 1000 } }));
    const since = Math.max(0, ...before.map((e) => e.event_id));
    const updates = Math.ceil((1.5 * EVENT_READ_BUDGET_BYTES) / bytesOf(ws));
    for (let i = 1; i <= updates; i++)
      assertOk(await c.workspaces.update(wg, ws.workspace_id!, { auto_stop_minutes: i }));

    const page = (query: Record<string, number>) => c.request<EventRecord[]>('GET', EVENTS, { query });
    const firstPage = await page({ since, limit: 1000 });
    const first = assertOk(firstPage);
    const sizes = first.map((e) => bytesOf(e.data));
    assert.ok(first.length > 1 && first.length < updates, `${first.length} of ${updates} events`);
    assert.ok(sizes.slice(0, -1).reduce((a, b) => a + b, 0) < EVENT_READ_BUDGET_BYTES, 'each starts within the budget');
    // Cut by the budget, short of the limit: the cursor says more follow, and where.
    const cursor = firstPage.headers['x-next-cursor'];
    assert.equal(cursor, String(first.at(-1)!.event_id));
    const restPage = await page({ since: Number(cursor), limit: 1000 });
    const rest = assertOk(restPage);
    assert.ok(
      sizes.reduce((a, b) => a + b, 0) + bytesOf(rest[0]!.data) > EVENT_READ_BUDGET_BYTES,
      'the next event would have passed the budget',
    );
    assert.equal(restPage.headers['x-next-cursor'], undefined, 'the last page has no cursor');
    const updated = [...first, ...rest].filter((e) => e.type === 'workspace.updated');
    assert.deepEqual(
      updated.map((e) => (e.data as { auto_stop_minutes: number }).auto_stop_minutes),
      Array.from({ length: updates }, (_, i) => i + 1),
      'every event once, in order',
    );
    const exact = await page({ since, limit: 2 });
    assert.equal(assertOk(exact).length, 2);
    assert.ok(exact.headers['x-next-cursor'], 'a page that reaches its limit says more may follow');

    // A stream sends them all at once, its reads cut by the budget going on without a new event.
    const key = resultOf(await c.apiKeys.create({ key_name: 'reader', role: 'viewer' })).plaintext_key!;
    const stream = await openEventStream(server.url, key, { lastEventId: String(since) });
    try {
      await stream.until((s) => s.events.length >= first.length + rest.length);
      assert.deepEqual(
        stream.events.map((e) => e.event_id),
        [...first, ...rest].map((e) => e.event_id),
      );
    } finally {
      stream.close();
    }
  });
});
