import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import type { BackupRecord, OperationRecord, WorkgroupRecord, WorkspaceRecord } from '../src/client/index.js';
import { runCli, type CliResult } from './helpers/cli.js';
import { publicProvider, startTestServer, storeName, type TestServer } from './helpers/server.js';

describe(`the acacia CLI against a running server (${storeName})`, () => {
  let server: TestServer;
  let home: string;
  let env: Record<string, string>;

  const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { ...env, ...extra });
  /** Runs a command with `-o json` and answers its parsed output; the command must succeed. */
  const json = async <T>(args: string[]): Promise<T> => {
    const res = await cli([...args, '-o', 'json']);
    assert.equal(res.code, 0, `acacia ${args.join(' ')}: ${res.stderr}`);
    return JSON.parse(res.stdout) as T;
  };
  const failsWith = (res: CliResult, code: number, pattern: RegExp) => {
    assert.equal(res.code, code, `expected exit ${code}: ${res.stderr}`);
    assert.match(res.stderr, pattern);
    assert.equal(res.stdout, '', 'a failure prints no result');
  };

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_LOG_LEVEL: 'warn' });
    home = mkdtempSync(path.join(tmpdir(), 'acacia-cli-'));
    env = { ACACIA_URL: server.url, ACACIA_API_KEY: server.bootstrapKey, XDG_CONFIG_HOME: home };
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('a whole journey: workgroup by provider name, workspace --wait, pause, backup, restore, delete all', async () => {
    const wg = await json<WorkgroupRecord>([
      'workgroups',
      'create',
      '--name',
      'journey',
      '--provider',
      'aws/us-east-1',
    ]);
    assert.equal(wg.cloud_provider_id, await publicProvider(server.client, 'aws', 'us-east-1'));
    assert.equal(wg.region, 'us-east-1');

    const created = await cli([
      'workspaces',
      'create',
      '--workgroup',
      'journey',
      '--name',
      'graph',
      '--wait',
      '-o',
      'json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const ws = JSON.parse(created.stdout) as WorkspaceRecord;
    assert.equal(ws.status, 'Active', 'the record shown is the one the change ended with');
    assert.equal(ws.workgroup_id, wg.workgroup_id);
    assert.match(created.stderr, /workspace graph: Active/, 'the state is shown on stderr, plain lines off a terminal');

    // A workspace by name, its workgroup found without --workgroup.
    const paused = await json<WorkspaceRecord>(['workspaces', 'pause', 'graph', '--wait']);
    assert.equal(paused.status, 'Stopped');
    const resuming = await json<WorkspaceRecord>(['workspaces', 'resume', ws.workspace_id]);
    assert.equal(resuming.status, 'Resuming', 'without --wait the answer is the record as the request left it');
    await server.client.waitFor({ workgroup: wg.workgroup_id, workspace: ws.workspace_id, status: 'Active' });

    const backup = await json<BackupRecord>([
      'backups',
      'create',
      '--workspace',
      'graph',
      '--tag',
      'nightly',
      '--wait',
    ]);
    assert.equal(backup.status, 'Succeeded');
    assert.equal(backup.tag, 'nightly');
    const restore = await json<OperationRecord>(['backups', 'restore', '-w', 'graph', backup.id, '--wait']);
    assert.equal(restore.kind, 'workspace.restore');
    assert.equal(restore.state, 'succeeded');

    const entry = await json<{ id: string; cidr: string }>([
      'allow-list',
      'add',
      '--workgroup',
      'journey',
      '10.1.2.3',
      '--note',
      'office',
    ]);
    assert.equal(entry.cidr, '10.1.2.3/32');
    const schedule = await json<{ id: string; action: string; next_run_at?: string; workspace_id: string }>([
      'schedules',
      'create',
      '--workspace',
      'graph',
      '--repeat',
      'daily',
      '--time',
      '03:00',
      '--timezone',
      'Europe/Berlin',
      '--action',
      'pause',
    ]);
    assert.equal(schedule.action, 'pause');
    assert.equal(schedule.workspace_id, ws.workspace_id, 'the schedule is filed under the workspace named');
    assert.ok(schedule.next_run_at);

    // -q prints ids, one a line; YAML parses back to the record.
    const ids = await cli(['workspaces', 'list', '-g', 'journey', '-q']);
    assert.equal(ids.stdout, `${ws.workspace_id}\n`);
    const yaml = await cli(['workgroups', 'get', 'journey', '-o', 'yaml']);
    assert.equal((parseYaml(yaml.stdout) as WorkgroupRecord).workgroup_id, wg.workgroup_id);
    const table = await cli(['workspaces', 'list', '-g', 'journey', '-o', 'table']);
    assert.match(table.stdout, /^WORKSPACE_ID\s+NAME\s+WORKGROUP\s+STATUS/);
    assert.match(table.stdout, new RegExp(`${ws.workspace_id}\\s+graph\\s+journey\\s+Active`));

    // Delete everything again, the workspace waited for until it is gone.
    assert.equal(await json<string>(['schedules', 'delete', '-w', 'graph', schedule.id]), schedule.id);
    assert.equal(await json<string>(['allow-list', 'delete', '-g', 'journey', entry.id]), entry.id);
    assert.equal(await json<string>(['backups', 'delete', '-w', 'graph', backup.id]), backup.id);
    const deleted = await cli(['workspaces', 'delete', 'graph', '--wait', '-o', 'json']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stderr, /workspace graph: deleted/);
    const dbs = await cli(['databases', 'list', '-g', 'journey', '-q']);
    for (const db of dbs.stdout.split('\n').filter(Boolean)) await json(['databases', 'delete', '-g', 'journey', db]);
    assert.equal(await json<string>(['workgroups', 'delete', 'journey']), wg.workgroup_id);
    assert.deepEqual(await json(['workgroups', 'list']), []);
  });

  it('a --wait whose change fails exits 11 with the error: a failed workspace, a failed operation', async () => {
    await json(['workgroups', 'create', '--name', 'faults', '--provider', 'aws/us-east-1']);
    const doomed = await cli([
      'workspaces',
      'create',
      '-g',
      'faults',
      '--name',
      'doomed',
      '--x-test-env',
      'fail:create',
      '--wait',
    ]);
    failsWith(doomed, 11, /error: workspace \S+ failed: simulated create failure/);
    assert.match(doomed.stderr, /workspace doomed: failed/);

    await json(['workspaces', 'create', '-g', 'faults', '--name', 'fragile', '--x-test-env', 'fail:backup', '--wait']);
    const backup = await cli(['backups', 'create', '-w', 'fragile', '--wait']);
    failsWith(backup, 11, /error: operation \S+ \(backup\.create\) failed: simulated backup failure/);
  });

  it('--timeout bounds a wait: exit 12 naming the last state; the change goes on', async () => {
    await json(['workgroups', 'create', '--name', 'slow', '--provider', 'aws/us-east-1']);
    const res = await cli([
      'workspaces',
      'create',
      '-g',
      'slow',
      '--name',
      'sluggish',
      '--x-test-env',
      'slow:create=1h',
      '--wait',
      '--timeout',
      '1s',
    ]);
    failsWith(res, 12, /timed out after 1000 ms waiting for workspace \S+ \(last seen: status Creating\)/);
    const [ws] = await json<WorkspaceRecord[]>(['workspaces', 'list', '-g', 'slow']);
    assert.equal(ws?.status, 'Creating');
  });

  it("prints the envelope's Type, FieldName and Reason and exits with the Type's own status", async () => {
    const missing = await cli(['workgroups', 'create', '--name', 'no-provider']);
    failsWith(missing, 4, /error: Bad-Request: cloud_provider_id: .*\(HTTP 400\)/);
    assert.match(missing.stderr, /request id: \S+/);
    failsWith(await cli(['workgroups', 'get', 'no-such-group']), 7, /no workgroup "no-such-group"/);
    failsWith(await cli(['operations', 'get', 'no-such-op']), 7, /error: Not-Found: id: /);
    failsWith(
      await cli(['workgroups', 'list'], { ACACIA_API_KEY: 'acacia_sk_not-a-key' }),
      5,
      /error: Unauthorized: x-api-key: /,
    );
    failsWith(await cli(['workgroups', 'list'], { ACACIA_API_KEY: '' }), 5, /no API key was given/);
    // -q of a new key prints the key itself, the one value never shown again.
    const viewer = await cli(['apikeys', 'create', '--key-name', 'read-only', '--role', 'viewer', '-q']);
    assert.match(viewer.stdout, /^acacia_sk_\S+\n$/);
    failsWith(
      await cli(['workgroups', 'create', '--provider', 'aws/us-east-1'], { ACACIA_API_KEY: viewer.stdout.trim() }),
      6,
      /error: Forbidden: /,
    );
    failsWith(
      await cli(['workgroups', 'list'], { ACACIA_URL: 'http://127.0.0.1:9' }),
      3,
      /cannot reach http:\/\/127\.0\.0\.1:9/,
    );
    failsWith(await cli(['workgroups', 'frobnicate']), 2, /unknown command 'frobnicate'/);
    failsWith(await cli(['workspaces', 'get']), 2, /missing required argument 'workspace'/);
  });

  it('keeps profiles in a 0600 file, shows keys redacted, and sends a key only to its own server', async () => {
    const noTarget = { ACACIA_URL: '', ACACIA_API_KEY: '' };
    const keyFile = path.join(home, 'key');
    execFileSync('bash', ['-c', `umask 022; echo "${server.bootstrapKey}" > "${keyFile}"`]);
    // A relative name is kept as the file's full path: the profile works from any directory.
    const set = await runCli(
      ['config', 'set', 'here', '--url', server.url, '--api-key-file', 'key'],
      { ...env, ...noTarget },
      home,
    );
    assert.equal(set.code, 0, set.stderr);
    const file = path.join(home, 'acacia', 'config.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    const saved = readFileSync(file, 'utf8');
    assert.ok(!saved.includes(server.bootstrapKey), 'the key stays in its file');
    assert.deepEqual(JSON.parse(saved), {
      current: 'here',
      profiles: { here: { url: server.url, api_key_file: keyFile } },
    });

    const listed = await cli(['config', 'list', '-o', 'json'], noTarget);
    assert.ok(!listed.stdout.includes(server.bootstrapKey), 'list never prints a whole key');
    assert.deepEqual(
      (JSON.parse(listed.stdout) as Array<{ name: string; current: boolean; api_key_file: string }>).map((p) => [
        p.name,
        p.current,
        p.api_key_file,
      ]),
      [['here', true, keyFile]],
    );

    // The current profile is used when no flag or variable says otherwise, its key read from
    // the file at each use: a key changed there is the one sent.
    const viaProfile = await cli(['workgroups', 'list', '-o', 'json'], noTarget);
    assert.equal(viaProfile.code, 0, viaProfile.stderr);
    writeFileSync(keyFile, 'acacia_sk_not-a-key\n');
    failsWith(await cli(['workgroups', 'list'], noTarget), 5, /error: Unauthorized: x-api-key: /);
    rmSync(keyFile);
    failsWith(await cli(['workgroups', 'list'], noTarget), 2, new RegExp(`cannot read the API key from ${keyFile}`));
    writeFileSync(keyFile, `${server.bootstrapKey}\n`);
    // Another URL does not take the profile's key along.
    const elsewhere = await cli(
      ['workgroups', 'list', '--url', server.url.replace('127.0.0.1', 'localhost')],
      noTarget,
    );
    failsWith(elsewhere, 5, /no API key was given/);
    failsWith(await cli(['workgroups', 'list', '--profile', 'nope'], noTarget), 2, /no profile "nope"/);
  });
});
