import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli, storeEnv, type CliResult } from './helpers/cli.js';
import { freshStore, storeName } from './helpers/server.js';
import { prefixTarget, TigerGraphReplay, type Auth } from './helpers/tigergraph-client.js';

/**
 * A CI job as docs/ci.md tells it, through the CLI only: a background server seeded from a
 * file, its status, a wait, some work, the state exported, reset and applied back, a snapshot
 * saved and loaded over damage, a chaos rule seen and expired on the manual clock, and a stop
 * that frees the ports. Workspaces run under the local driver, so the snapshot carries a graph.
 */

const password = 'Ci-Job-Secret-2026';
const seed = `apiVersion: acacia/v1
kind: State
workgroups:
  - name: ci
    provider: aws/us-east-1
    allow_list:
      - cidr: 10.0.0.0/8
        note: runners
    workspaces:
      - name: app
        database: app-db
        workspace_type_name: TG-00
        db_users:
          - username: tester
            password_env: TESTER_PASSWORD
        schedules:
          - action: pause
            repeat: daily
            time: '22:00'
            timezone: UTC
        graph:
          as_user: tester
          gsql: schema.gsql
          load:
            - file: builds.json
              graph: ci
`;
const schema = 'CREATE VERTEX Build (PRIMARY_ID id STRING, ok BOOL)\nCREATE GRAPH ci (*)';
const buildsOf = (ids: string[]) =>
  JSON.stringify({ vertices: { Build: Object.fromEntries(ids.map((id) => [id, { ok: { value: true } }])) } });

/** Whether something accepts connections on the URL's port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const basic: Auth = { auth: { username: 'tester', password } };

/** The graph of a workspace as the job's tests use it, through the gateway. */
function graphOf(gatewayUrl: string, workspaceId: string) {
  const tg = new TigerGraphReplay(prefixTarget(gatewayUrl, workspaceId));
  return {
    define: () => tg.gsql4(basic, schema),
    upsert: (ids: string[]) => tg.request('POST', '/restpp/graph/ci', basic, buildsOf(ids)),
    async builds(): Promise<string[] | undefined> {
      const res = await tg.request('GET', '/restpp/graph/ci/vertices/Build', basic);
      return res.status === 200 ? (res.json.results as { v_id: string }[]).map((v) => v.v_id).sort() : undefined;
    },
  };
}

const json = <T>(r: CliResult): T => {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};

describe(`a CI job through the CLI (${storeName})`, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'acacia-ci-job-'));
  let env: Record<string, string> = {};
  let stopped = false;
  after(async () => {
    if (!stopped) await runCli(['stop'], env);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves detached from a seed, exports, resets, applies, snapshots, breaks and stops', async () => {
    const store = await freshStore();
    env = { ...storeEnv(store), TESTER_PASSWORD: password };
    const cli = (...args: string[]) => runCli([...args, '-o', 'json'], env);
    const seedFile = path.join(dir, 'seed.yaml');
    writeFileSync(seedFile, seed);
    writeFileSync(path.join(dir, 'schema.gsql'), schema);
    writeFileSync(path.join(dir, 'builds.json'), buildsOf(['b1']));

    // Start: in the background, seeded, ready when the command returns; the profile `local` is made.
    const started = json<{ pid: number; url: string; gateway_url: string }>(
      await runCli(['serve', '--detach', '--seed', seedFile, '-o', 'json'], {
        ...env,
        ACACIA_PORT: '0',
        ACACIA_GATEWAY_PORT: '0',
        ACACIA_DRIVER: 'local',
        ACACIA_CLOCK: 'manual',
        ACACIA_FAULT_INJECTION: 'on',
        ACACIA_SIM_SPEED: '0',
      }),
    );
    const status = json<{ status: string; driver: string; fault_injection: boolean; clock: { kind: string } }>(
      await cli('status'),
    );
    assert.equal(status.status, 'up');
    assert.equal(status.driver, 'local');
    assert.equal(status.fault_injection, true);

    const ws = json<{ workspace_id: string; status: string }>(
      await cli('wait', 'workspace', 'app', '--for', 'status=Active', '--timeout', '2m'),
    );
    assert.equal(ws.status, 'Active');

    // The seed loaded the graph; the job's tests add to it through the gateway, as the seed's user.
    const graph = graphOf(started.gateway_url, ws.workspace_id);
    assert.deepEqual(await graph.builds(), ['b1']);
    assert.equal((await graph.upsert(['b2'])).status, 200);
    assert.deepEqual(await graph.builds(), ['b1', 'b2']);
    const backup = json<{ status: string }>(await cli('backups', 'create', '-w', 'app', '--tag', 'first', '--wait'));
    assert.equal(backup.status, 'Succeeded');

    // The state as a file; a reset empties the instance; applying the file makes it again.
    const exported = path.join(dir, 'state.yaml');
    assert.equal((await runCli(['export', '-f', exported], env)).code, 0);
    const before = readFileSync(exported, 'utf8');
    assert.match(before, /name: app/);
    assert.doesNotMatch(before, new RegExp(password));
    // The file names the variable that holds each password: the job supplies them.
    const variables = [...before.matchAll(/password_env: (\w+)/g)].map((m) => m[1]!);
    assert.ok(variables.length > 0, before);
    for (const v of variables) env[v] = password;

    assert.equal((await cli('reset')).code, 0);
    assert.deepEqual(json<unknown[]>(await cli('workgroups', 'list')), []);
    const plan = json<{ changes: { action: string }[] }>(await cli('apply', '-f', exported));
    assert.ok(plan.changes.some((c) => c.action === 'create'));
    assert.equal((await runCli(['export'], env)).stdout, before);
    const again = json<{ changes: { action: string; kind: string; name: string }[] }>(
      await cli('apply', '-f', exported),
    );
    assert.deepEqual(
      again.changes.filter((c) => c.action !== 'unchanged' && c.action !== 'skip'),
      [],
      'a second apply changes nothing',
    );

    // The graph went with the reset: load it again, then save the whole instance.
    const app = json<{ workspace_id: string }>(await cli('wait', 'workspace', 'app', '--for', 'status=Active'));
    const graph2 = graphOf(started.gateway_url, app.workspace_id);
    assert.equal((await graph2.define()).status, 200);
    assert.equal((await graph2.upsert(['b3'])).status, 200);
    const snapshot = path.join(dir, 'instance.snapshot');
    assert.equal((await cli('snapshot', 'save', snapshot)).code, 0);

    // Damage: more data, and the allow list enforced (shutting this runner out); the snapshot undoes both.
    assert.equal((await graph2.upsert(['b4'])).status, 200);
    assert.equal((await cli('allow-list', 'enable', '-g', 'ci')).code, 0);
    assert.notEqual((await runCli(['export'], env)).stdout, before);
    assert.equal((await cli('snapshot', 'load', snapshot)).code, 0);
    assert.equal((await runCli(['export'], env)).stdout, before);
    // The engine starts the Active workspace again on the loaded graph (process start-up is real time).
    let got: string[] | undefined;
    for (let i = 0; i < 400 && got?.join() !== 'b3'; i++) {
      got = await graph2.builds();
      if (got?.join() !== 'b3') await new Promise((r) => setTimeout(r, 25));
    }
    assert.deepEqual(got, ['b3']);

    // Chaos: a rule that fails every workgroup listing, seen, then expired by the manual clock.
    const rule = json<{ id: string }>(
      await cli('chaos', 'add', '--endpoint', 'listWorkgroups', '--error-rate', '1', '--ttl', '60s'),
    );
    const failing = await cli('workgroups', 'list');
    assert.equal(failing.code, 10, failing.stderr);
    const rules = json<{ id: string; hits: number }[]>(await cli('chaos', 'list'));
    assert.deepEqual(
      rules.map((r) => [r.id, r.hits]),
      [[rule.id, 1]],
    );
    assert.equal((await cli('clock', 'move', '--advance-seconds', '61')).code, 0);
    assert.equal(json<unknown[]>(await cli('workgroups', 'list')).length, 1);
    assert.deepEqual(json<unknown[]>(await cli('chaos', 'list')), []);

    // Stop: gracefully, the ports free, and status says so.
    assert.equal((await cli('stop')).code, 0);
    stopped = true;
    assert.equal(await listening(started.url), false);
    assert.equal(await listening(started.gateway_url), false);
    assert.equal((await cli('status')).code, 13);
  });
});
