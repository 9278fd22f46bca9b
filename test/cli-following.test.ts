import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  resultOf,
  type BackupRecord,
  type EventRecord,
  type OperationRecord,
  type WorkspaceRecord,
} from '../src/client/index.js';
import { cleanEnv, cliCommand, runCli, spawnCli, type CliResult } from './helpers/cli.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup, waitForDeletion, waitForStatus } from './helpers/workspaces.js';

/** A spawned CLI command: what it printed so far, and its end. */
function started(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => (out.stdout += d));
  child.stderr!.on('data', (d) => (out.stderr += d));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout: out.stdout, stderr: out.stderr })),
  );
  /** Resolves once `check` holds of the output, looking again as it grows; rejects if the process ends first. */
  const until = (check: (o: typeof out) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const look = () => {
        if (!check(out)) return;
        stop();
        resolve();
      };
      const ended = () => {
        stop();
        reject(new Error(`ended before ${what}: ${out.stderr}`));
      };
      const stop = () => {
        child.stdout!.off('data', look);
        child.stderr!.off('data', look);
        child.off('close', ended);
      };
      child.stdout!.on('data', look);
      child.stderr!.on('data', look);
      child.on('close', ended);
      look();
    });
  return { out, done, until };
}

describe(`following things from the CLI (${storeName})`, () => {
  /** Changes end at once here; the manual-clock server below holds them until its clock moves. */
  let server: TestServer;
  let home: string;
  let env: Record<string, string>;
  const cli = (args: string[]) => runCli(args, env);
  const json = async <T>(args: string[]): Promise<T> => {
    const res = await cli([...args, '-o', 'json']);
    assert.equal(res.code, 0, `acacia ${args.join(' ')}: ${res.stderr}`);
    return JSON.parse(res.stdout) as T;
  };

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0', ACACIA_LOG_LEVEL: 'warn' });
    home = mkdtempSync(path.join(tmpdir(), 'acacia-following-'));
    env = { ACACIA_URL: server.url, ACACIA_API_KEY: server.bootstrapKey, XDG_CONFIG_HOME: home };
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });
  /** Deletes a workspace a test is done with: the tier allows 4 read-write ones. */
  const done = async (ws: WorkspaceRecord) => {
    resultOf(await server.client.workspaces.delete(ws.workgroup_id, ws.workspace_id));
    await waitForDeletion(server.client, ws.workgroup_id, ws.workspace_id);
  };

  it('events follow prints events as JSON lines and picks up after a server restart, losing none', async () => {
    const c = server.client;
    const first = await newWorkgroup(c, 'followed-1');
    const since = resultOf(await c.events.list({ resource_id: first })).at(-1)!.event_id - 1;
    const follow = started(
      spawnCli(
        ['events', 'follow', '--since', String(since), '--until', 'workgroup.deleted', '--timeout', '2m', '-o', 'json'],
        env,
      ),
    );
    await follow.until((o) => o.stdout.includes(first), 'the first workgroup');
    await server.restart();
    const second = await newWorkgroup(c, 'followed-2');
    resultOf(await c.workgroups.delete(second));
    const res = await follow.done;
    assert.equal(res.code, 0, res.stderr);
    const events = res.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as EventRecord);
    const ids = events.map((e) => e.event_id);
    assert.deepEqual(
      ids,
      ids.map((_, i) => since + 1 + i),
      'every event once, in order, across the restart',
    );
    assert.deepEqual(
      events.filter((e) => e.resource_kind === 'workgroup').map((e) => [e.type, e.resource_id]),
      [
        ['workgroup.created', first],
        ['workgroup.created', second],
        ['workgroup.deleted', second],
      ],
    );
  });

  it('events list --format sse says to follow instead of waiting on a stream it would never end', async () => {
    const res = await cli(['events', 'list', '--format', 'sse']);
    assert.equal(res.code, 2, res.stderr);
    assert.match(res.stderr, /acacia events follow/);
    assert.equal(res.stdout, '');
  });

  it('wait returns once the condition holds, by name, and prints the record', async () => {
    const wg = await newWorkgroup(server.client, 'waits');
    const ws = await activeWorkspace(server.client, wg, { name: 'awaited' });
    const waiting = started(spawnCli(['wait', 'workspace', 'awaited', '--for', 'status=Stopped', '-o', 'json'], env));
    await waiting.until((o) => o.stderr.includes('status=Active'), 'the first read');
    resultOf(await server.client.workspaces.pause(wg, ws.workspace_id));
    const res = await waiting.done;
    assert.equal(res.code, 0, res.stderr);
    assert.equal((JSON.parse(res.stdout) as WorkspaceRecord).status, 'Stopped');

    const quiet = await cli(['wait', 'workgroup', 'waits', '--for', 'name=WAITS', '-q']);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stdout.trim(), wg, 'values compare ignoring case; -q prints the id');
    await done(ws);
  });

  it('wait ends with exit status 12 at --timeout, 7 for nothing by that name, 2 for a field there is not', async () => {
    const wg = await newWorkgroup(server.client, 'timeouts');
    const ws = await activeWorkspace(server.client, wg, { name: 'steady' });
    const timedOut = await cli(['wait', 'workspace', 'steady', '--for', 'status=Stopped', '--timeout', '1s']);
    assert.equal(timedOut.code, 12, timedOut.stderr);
    assert.match(timedOut.stderr, /timed out after 1s waiting for workspace steady to be status=Stopped/);
    assert.match(timedOut.stderr, /last seen: status=Active/);
    assert.equal(timedOut.stdout, '');

    const missing = await cli([
      'wait',
      'operation',
      '01a2aaaa-0000-7000-8000-000000000000',
      '--for',
      'state=succeeded',
    ]);
    assert.equal(missing.code, 7, missing.stderr);
    const gone = await cli(['wait', 'workspace', 'never-was', '--for', 'deleted']);
    assert.equal(gone.code, 0, 'nothing by that name is deleted already');
    const field = await cli(['wait', 'workspace', 'steady', '--for', 'colour=blue']);
    assert.equal(field.code, 2);
    assert.match(field.stderr, /no field "colour"/);
    await done(ws);
  });

  it('operations list --resource-id of a workspace includes its backups; workspaces list needs no -g', async () => {
    const one = await newWorkgroup(server.client, 'listed-1');
    const two = await newWorkgroup(server.client, 'listed-2');
    const a = await activeWorkspace(server.client, one, { name: 'list-a' });
    const b = await activeWorkspace(server.client, two, { name: 'list-b' });
    const backup = await json<BackupRecord>(['backups', 'create', '-w', 'list-a', '--tag', 'listed', '--wait']);

    const ops = await json<OperationRecord[]>(['operations', 'list', '--resource-id', a.workspace_id]);
    assert.deepEqual(
      ops.map((o) => [o.kind, o.resource_id]),
      [
        ['workspace.create', a.workspace_id],
        ['backup.create', backup.id],
      ],
    );
    const ofBackup = await json<OperationRecord[]>(['operations', 'list', '--resource-id', backup.id]);
    assert.deepEqual(
      ofBackup.map((o) => o.kind),
      ['backup.create'],
    );

    const all = await json<WorkspaceRecord[]>(['workspaces', 'list']);
    for (const ws of [a, b])
      assert.ok(
        all.some((w) => w.workspace_id === ws.workspace_id),
        `${ws.name} listed`,
      );
    const inTwo = await json<WorkspaceRecord[]>(['workspaces', 'list', '-g', 'listed-2']);
    assert.deepEqual(
      inTwo.map((w) => w.workspace_id),
      [b.workspace_id],
    );
    await done(a);
    await done(b);
  });

  it('names a backup by its tag, and an ambiguous tag by none, listing the candidates', async () => {
    const wg = await newWorkgroup(server.client, 'tagged');
    const ws = await activeWorkspace(server.client, wg, { name: 'tagged-ws' });
    const take = async (tag: string) => {
      const b = resultOf(await server.client.backups.create(wg, ws.workspace_id, { tag }));
      const res = await cli([
        'wait',
        'backup',
        tag === 'twice' ? b.id : tag,
        '-w',
        'tagged-ws',
        '--for',
        'status=Succeeded',
      ]);
      assert.equal(res.code, 0, res.stderr);
      return b;
    };
    const once = await take('once');
    const twice = [await take('twice'), await take('twice')];

    const deleted = await cli(['backups', 'delete', '-w', 'tagged-ws', 'ONCE', '-o', 'json']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(JSON.parse(deleted.stdout), once.id);

    const ambiguous = await cli(['backups', 'restore', '-w', 'tagged-ws', 'twice']);
    assert.equal(ambiguous.code, 2, ambiguous.stderr);
    assert.match(ambiguous.stderr, /2 backups are tagged "twice"/);
    for (const b of twice) assert.ok(ambiguous.stderr.includes(b.id), 'each candidate named');
    const none = await cli(['backups', 'delete', '-w', 'tagged-ws', 'never']);
    assert.equal(none.code, 7, none.stderr);

    const completed = await cli(['__complete', 'backups', 'restore', '-w', 'tagged-ws', '']);
    assert.equal(completed.code, 0, completed.stderr);
    assert.deepEqual(
      completed.stdout.trim().split('\n').sort(),
      ['twice', ...twice.map((b) => b.id)].sort(),
      'the tags and ids of the backups left',
    );
    await done(ws);
  });

  describe('under the manual clock', () => {
    let slow: TestServer;
    let slowEnv: Record<string, string>;
    before(async () => {
      slow = await startTestServer({ ACACIA_CLOCK: 'manual', ACACIA_LOG_LEVEL: 'warn' });
      slowEnv = { ...env, ACACIA_URL: slow.url, ACACIA_API_KEY: slow.bootstrapKey };
    });
    after(() => slow.close());

    /** Moves the clock a minute at a time until the workspace is `status` (a step may be retried meanwhile). */
    const advanceUntil = async (wg: string, ws: string, status: string) => {
      for (let i = 0; i < 60; i++) {
        const now = resultOf(await slow.client.workspaces.get(wg, ws));
        if (now.status === status) return;
        resultOf(await slow.client.moveClock({ advance_seconds: 60 }));
      }
      await waitForStatus(slow.client, wg, ws, status);
    };

    it('--wait follows a creation across a server restart and reports how it really ended', async () => {
      const wg = await newWorkgroup(slow.client, 'restarted');
      const create = started(
        spawnCli(
          [
            'workspaces',
            'create',
            '-g',
            'restarted',
            '--name',
            'survivor',
            '--workspace-type-name',
            'TG-00',
            '--wait',
            '-o',
            'json',
          ],
          slowEnv,
        ),
      );
      await create.until((o) => /workspace survivor: Creating/.test(o.stderr), 'the creation followed');
      await slow.restart();
      const ws = resultOf(await slow.client.workspaces.list(wg)).find((w) => w.name === 'survivor')!;
      await advanceUntil(wg, ws.workspace_id, 'Active');
      const res = await create.done;
      assert.equal(res.code, 0, res.stderr);
      assert.equal((JSON.parse(res.stdout) as WorkspaceRecord).status, 'Active');
      assert.doesNotMatch(res.stderr, /failed/);
    });

    it('--wait past --timeout names the wait command that goes on, and that command works', async () => {
      const wg = await newWorkgroup(slow.client, 'advised');
      const ws = resultOf(await slow.client.workspaces.create(wg, { name: 'advised-ws' }));
      await advanceUntil(wg, ws.workspace_id!, 'Active');
      const paused = await runCli(['workspaces', 'pause', 'advised-ws', '--wait', '--timeout', '1s'], slowEnv);
      assert.equal(paused.code, 12, paused.stderr);
      const advice = /it goes on: wait on with acacia (wait .*)$/m.exec(paused.stderr);
      assert.ok(advice, paused.stderr);
      assert.equal(advice[1], `wait workspace ${ws.workspace_id} -g ${wg} --for status=Active,Stopped,Idle,Failed`);
      await advanceUntil(wg, ws.workspace_id!, 'Stopped');
      const waited = await runCli([...advice[1]!.split(' '), '-o', 'json'], slowEnv);
      assert.equal(waited.code, 0, waited.stderr);
      assert.equal((JSON.parse(waited.stdout) as WorkspaceRecord).status, 'Stopped');
    });
  });

  it('__complete answers commands, flags, -o values and the names the server knows; the scripts call it', async () => {
    await newWorkgroup(server.client, 'completed-wg');
    const complete = async (...words: string[]) => {
      const res = await cli(['__complete', ...words]);
      assert.equal(res.code, 0, res.stderr);
      return res.stdout.trim().split('\n');
    };
    assert.deepEqual(await complete('workspaces', 'p'), ['pause']);
    assert.deepEqual(await complete('workspaces', 'create', '--wa'), ['--wait']);
    assert.deepEqual(await complete('workspaces', 'list', '-o', ''), ['table', 'json', 'yaml']);
    assert.deepEqual(await complete('wait', ''), ['workspace', 'workgroup', 'backup', 'database', 'operation']);
    assert.deepEqual(await complete('wait', 'workgroup', 'completed'), ['completed-wg']);
    assert.deepEqual(await complete('workspaces', 'list', '-g', 'completed-'), ['completed-wg']);
    const elsewhere = await runCli(['__complete', 'workgroups', 'get', ''], {
      ...env,
      ACACIA_URL: 'http://127.0.0.1:9',
    });
    assert.equal(elsewhere.code, 0, 'no server: no names, and no error');
    assert.equal(elsewhere.stdout, '');

    // The bash script, run as `acacia` and as `npx acacia` (acacia not on the PATH): both call back.
    const bin = mkdtempSync(path.join(tmpdir(), 'acacia-completion-'));
    try {
      const command = cliCommand.map((w) => `'${w}'`).join(' ');
      mkdirSync(path.join(bin, 'npx-only'));
      writeFileSync(path.join(bin, 'acacia'), `#!/bin/sh\nexec ${command} "$@"\n`);
      writeFileSync(
        path.join(bin, 'npx-only', 'npx'),
        `#!/bin/sh\n[ "$1" = --no-install ] && [ "$2" = acacia ] || exit 1\nshift 2\nexec ${command} "$@"\n`,
      );
      chmodSync(path.join(bin, 'acacia'), 0o755);
      chmodSync(path.join(bin, 'npx-only', 'npx'), 0o755);
      const script = (await cli(['completion', 'bash'])).stdout;
      // Not execFileSync: the server runs in this process, and must answer meanwhile.
      const bash = async (pathDirs: string, line: string) =>
        (
          await promisify(execFile)(
            'bash',
            [
              '-c',
              `${script}\nCOMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))\n` +
                '_acacia; echo "${COMPREPLY[*]}"',
            ],
            { encoding: 'utf8', env: { ...cleanEnv(), ...env, PATH: `${pathDirs}:/usr/bin:/bin` } },
          )
        ).stdout.trim();
      const node = path.dirname(process.execPath);
      assert.equal(await bash(`${bin}:${node}`, 'acacia workgroups get completed'), 'completed-wg');
      assert.equal(await bash(`${path.join(bin, 'npx-only')}:${node}`, 'npx acacia workspaces list -o j'), 'json');
      for (const shell of ['zsh', 'fish']) {
        const text = (await cli(['completion', shell])).stdout;
        assert.match(text, /__complete/);
        assert.match(text, /npx --no-install acacia/);
      }
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
