import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_PREFIX, type WorkgroupRecord, type WorkspaceRecord } from '../src/client/index.js';
import { assertOk } from './helpers/assert.js';
import { runCli } from './helpers/cli.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

/** A name lookup reads what it needs: never the whole list of workgroups at once. */
describe(`the CLI's lookups by name (${storeName})`, () => {
  let server: TestServer;
  let home: string;
  let env: Record<string, string>;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0' });
    home = mkdtempSync(path.join(tmpdir(), 'acacia-lookups-'));
    env = { ACACIA_URL: server.url, ACACIA_API_KEY: server.bootstrapKey, XDG_CONFIG_HOME: home };
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** The workgroup reads (paths and queries) the server answered while `run` ran. */
  async function readsDuring(run: () => Promise<void>): Promise<string[]> {
    const from = server.logs.length;
    await run();
    return server.logs
      .slice(from)
      .flatMap((line) => {
        const entry = JSON.parse(line) as { method?: string; url?: string };
        return entry.method === 'GET' && entry.url?.startsWith(`${API_PREFIX}/workgroups`) ? [entry.url] : [];
      })
      .map((url) => url.slice(API_PREFIX.length));
  }

  const json = async <T>(args: string[]): Promise<T> => {
    const res = await runCli([...args, '-o', 'json'], env);
    assert.equal(res.code, 0, `acacia ${args.join(' ')}: ${res.stderr}`);
    return JSON.parse(res.stdout) as T;
  };

  it('finds a workgroup by name with ?name=, by id in one read, a workspace 20 workgroups at a time', async () => {
    const c = server.client;
    for (let i = 0; i < 25; i++) await newWorkgroup(c, `filler-${i}`);
    const wg = await newWorkgroup(c, 'Analytics');
    const ws = await activeWorkspace(c, wg, { name: 'reports' });

    let found: WorkgroupRecord | undefined;
    assert.deepEqual(
      await readsDuring(async () => {
        found = await json<WorkgroupRecord>(['workgroups', 'get', 'analytics']);
      }),
      ['/workgroups?name=analytics', `/workgroups/${wg}`],
      'the lookup, then the command',
    );
    assert.equal(found!.workgroup_id, wg);
    assert.deepEqual(
      await readsDuring(async () => {
        await json<WorkgroupRecord>(['workgroups', 'get', wg]);
      }),
      [`/workgroups/${wg}`, `/workgroups/${wg}`],
    );

    let got: WorkspaceRecord | undefined;
    const across = await readsDuring(async () => {
      got = await json<WorkspaceRecord>(['workspaces', 'get', 'reports']);
    });
    assert.equal(got!.workspace_id, ws.workspace_id);
    const pages = across.filter((u) => u.startsWith('/workgroups?'));
    assert.equal(pages.length, 2, `27 workgroups, 20 a page: ${across.join(' ')}`);
    assert.ok(
      pages.every((u) => /[?&]limit=20(&|$)/.test(u)),
      `each read is a page: ${pages.join(' ')}`,
    );

    const within = await readsDuring(async () => {
      got = await json<WorkspaceRecord>(['workspaces', 'get', 'reports', '--workgroup', 'ANALYTICS']);
    });
    assert.equal(got!.workspace_id, ws.workspace_id);
    assert.equal(within[0], '/workgroups?name=ANALYTICS');

    // The filter itself, as any client may use it.
    const named = assertOk(await c.workgroups.list({ name: 'aNaLyTiCs' }));
    assert.deepEqual(
      named.map((w) => w.workgroup_id),
      [wg],
    );
    assert.deepEqual(assertOk(await c.workgroups.list({ name: 'nobody' })), []);
  });
});
