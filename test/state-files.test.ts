import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { listeningUrl, runCli, spawnCli, storeEnv, type CliResult } from './helpers/cli.js';
import { serveProcess, stopProcess } from './helpers/serve.js';
import { exportState, readLiveState, stateYaml } from '../src/cli/state/index.js';
import { freshStore, newKeyText, startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

interface PlanReport {
  changes: Array<{ action: string; kind: string; name: string; detail?: string }>;
  summary: Record<'create' | 'update' | 'delete' | 'unchanged' | 'skip', number>;
  no_changes: boolean;
  applied: boolean;
}

const PASSWORD = 'State-Files-2026!';
const settings = {
  ACACIA_SIM_SPEED: '0',
  ACACIA_LOG_LEVEL: 'warn',
  ACACIA_WEBHOOK_ALLOW_PRIVATE: 'on',
};

describe(`state files: export, apply and seed (${storeName})`, () => {
  let source: TestServer;
  let target: TestServer;
  let dir: string;

  const env = (server: TestServer, extra: Record<string, string> = {}) => ({
    ACACIA_URL: server.url,
    ACACIA_API_KEY: server.bootstrapKey,
    ACACIA_PASSWORD_PRIMARY_APP: PASSWORD,
    ...extra,
  });
  const cli = (server: TestServer, args: string[], extra: Record<string, string> = {}) =>
    runCli(args, env(server, extra));
  /** The export, made in this process (the CLI's `export` is tested on its own). */
  const live = async (server: TestServer): Promise<string> =>
    stateYaml(exportState(await readLiveState(server.client)));
  const exported = async (server: TestServer): Promise<string> => {
    const res = await cli(server, ['export']);
    assert.equal(res.code, 0, res.stderr);
    return res.stdout;
  };
  const file = (name: string, content: unknown) => {
    const at = path.join(dir, name);
    writeFileSync(at, typeof content === 'string' ? content : toYaml(content));
    return at;
  };
  const apply = async (server: TestServer, args: string[], extra: Record<string, string> = {}) => {
    const res = await cli(server, ['apply', ...args, '-o', 'json'], extra);
    assert.equal(res.code, 0, res.stderr);
    return JSON.parse(res.stdout) as PlanReport;
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'acacia-state-'));
    [source, target] = await Promise.all([startTestServer(settings), startTestServer(settings)]);
    const c = source.client;
    const wg = await newWorkgroup(c, 'alpha');
    resultOf(await c.workgroups.update(wg, { enable_application_log: true }));
    resultOf(await c.allowList.create(wg, { cidr: '10.0.0.0/8', note: 'office' }));
    resultOf(await c.allowList.create(wg, { cidr: '192.168.1.7' }));
    resultOf(await c.allowList.enable(wg));
    const primary = await activeWorkspace(c, wg, {
      name: 'primary',
      database_name: 'maindb',
      workspace_type_name: 'TG-00',
      auto_stop_minutes: 30,
    });
    await activeWorkspace(c, wg, { name: 'replica', is_rw: false, tg_database_id: primary.database_id });
    resultOf(await c.dbUsers.create(wg, primary.workspace_id, { username: 'app', password: PASSWORD }));
    resultOf(
      await c.schedules.create(wg, primary.workspace_id, {
        workspace_id: primary.workspace_id,
        repeat: 'daily',
        time: '02:00',
        timezone: 'UTC',
        action: 'pause',
      }),
    );
    resultOf(await c.backups.setSchedule(wg, primary.workspace_id, { schedule: '0 3 * * *', max_retry: 2 }));
    resultOf(await c.webhooks.create({ url: 'http://127.0.0.1:9/hook', event_types: ['workspace.created'] }));
    await newWorkgroup(c, 'beta');
    const insights = resultOf(await c.addons.catalog()).find((a) => a.unique_name === 'insights')!;
    resultOf(await c.addons.install(insights.addons_id, { enable: 'true' }));
  });
  after(async () => {
    await Promise.all([source?.close(), target?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('export names every resource by name, nested, without secrets or ids, byte-equal twice', async () => {
    const first = await exported(source);
    assert.equal(await live(source), first);
    assert.equal(await exported(source), first);
    const state = parseYaml(first);
    assert.equal(state.apiVersion, 'acacia/v1');
    assert.equal(state.kind, 'State');
    assert.deepEqual(state.addons, [{ name: 'insights', enabled: true }]);
    assert.deepEqual(
      state.workgroups.map((w: { name: string }) => w.name),
      ['alpha', 'beta'],
    );
    const alpha = state.workgroups[0];
    assert.equal(alpha.provider, 'aws/us-east-1');
    assert.equal(alpha.enable_application_log, true);
    assert.equal(alpha.enable_allow_list, true);
    assert.deepEqual(alpha.allow_list, [{ cidr: '10.0.0.0/8', note: 'office' }, { cidr: '192.168.1.7/32' }]);
    const [primary, replica] = alpha.workspaces;
    assert.equal(primary.name, 'primary');
    assert.equal(primary.database, 'maindb');
    assert.equal(primary.workspace_type_name, 'TG-00');
    assert.equal(primary.auto_stop_minutes, 30);
    assert.deepEqual(primary.db_users, [{ username: 'app', password_env: 'ACACIA_PASSWORD_PRIMARY_APP' }]);
    assert.deepEqual(primary.schedules, [{ action: 'pause', repeat: 'daily', time: '02:00', timezone: 'UTC' }]);
    assert.equal(primary.backup_schedule.schedule, '0 3 * * *');
    assert.equal(primary.backup_schedule.max_retry, 2);
    assert.equal(replica.name, 'replica');
    assert.equal(replica.is_rw, false);
    assert.equal(replica.database, 'maindb');
    assert.deepEqual(state.webhooks, [{ url: 'http://127.0.0.1:9/hook', event_types: ['workspace.created'] }]);
    assert.doesNotMatch(first, /password:|secret|_id:/);
  });

  it('export --schema prints the JSON Schema of the file; -f writes the file', async () => {
    const res = await cli(source, ['export', '--schema']);
    assert.equal(res.code, 0, res.stderr);
    const schema = JSON.parse(res.stdout);
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(schema.required, ['apiVersion', 'kind']);
    const out = path.join(dir, 'written.yaml');
    const written = await cli(source, ['export', '-f', out]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout, '');
    const json = await cli(source, ['export', '-o', 'json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), parseYaml(await live(source)));
  });

  it('applying an export to a fresh server makes the same export; a second apply changes nothing', async () => {
    const state = await exported(source);
    const at = file('export.yaml', state);
    const first = await apply(target, ['-f', at]);
    assert.equal(first.applied, true);
    assert.equal(first.summary.create > 0, true);
    assert.equal(await live(target), state);

    const second = await apply(target, ['-f', at]);
    assert.equal(second.no_changes, true);
    assert.equal(second.applied, false);
    assert.equal(second.summary.create + second.summary.update + second.summary.delete, 0);
    assert.equal(await live(target), state);

    const table = await cli(target, ['apply', '-f', at, '-o', 'table']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /No changes\./);
  });

  it('--dry-run prints the plan and changes nothing; apply makes the change', async () => {
    const state = parseYaml(await live(target));
    state.workgroups[1].workspaces = [{ name: 'extra', workspace_type_name: 'TG-00' }];
    state.workgroups[0].workspaces[0].auto_stop_minutes = 45;
    const at = file('dry.yaml', state);
    const before = await live(target);
    const plan = await apply(target, ['-f', at, '--dry-run']);
    assert.equal(plan.applied, false);
    assert.deepEqual(
      plan.changes.filter((c) => c.action !== 'unchanged').map((c) => [c.action, c.kind, c.name, c.detail]),
      [
        ['update', 'workspace', 'alpha/primary', 'auto_stop_minutes'],
        ['create', 'workspace', 'beta/extra', undefined],
      ],
    );
    assert.equal(await live(target), before);

    const applied = await apply(target, ['-f', at]);
    assert.equal(applied.applied, true);
    const after = parseYaml(await live(target));
    assert.equal(after.workgroups[0].workspaces[0].auto_stop_minutes, 45);
    assert.equal(after.workgroups[1].workspaces[0].name, 'extra');
    assert.equal((await apply(target, ['-f', at])).no_changes, true);
  });

  it('--prune deletes what the file does not name; without it nothing is deleted', async () => {
    const state = parseYaml(await live(target));
    state.workgroups = state.workgroups.filter((w: { name: string }) => w.name === 'alpha');
    const alpha = state.workgroups[0];
    alpha.workspaces = alpha.workspaces.filter((w: { name: string }) => w.name === 'primary');
    alpha.allow_list = alpha.allow_list.slice(0, 1);
    alpha.workspaces[0].schedules = [];
    state.webhooks = [];
    const at = file('prune.yaml', state);
    const kept = await apply(target, ['-f', at]);
    assert.equal(kept.no_changes, true, JSON.stringify(kept.changes));

    const pruned = await apply(target, ['-f', at, '--prune']);
    assert.deepEqual(
      pruned.changes
        .filter((c) => c.action === 'delete' && c.kind !== 'database')
        .map((c) => `${c.kind} ${c.name}`)
        .sort(),
      [
        'allow_list alpha/allow_list/192.168.1.7/32',
        'schedule alpha/primary/schedules/pause daily 02:00',
        'webhook http://127.0.0.1:9/hook',
        'workgroup beta',
        'workspace alpha/replica',
        'workspace beta/extra',
      ],
    );
    const after = await live(target);
    // The pruned workgroup's database went with it; the replica's database stays, the primary uses it.
    assert.deepEqual(
      pruned.changes.filter((c) => c.action === 'delete' && c.kind === 'database').map((c) => c.name.split('/')[0]),
      ['beta'],
    );
    const again = parseYaml(after);
    assert.deepEqual(
      again.workgroups.map((w: { name: string }) => w.name),
      ['alpha'],
    );
    assert.deepEqual(
      again.workgroups[0].workspaces.map((w: { name: string }) => w.name),
      ['primary'],
    );
    assert.equal(again.workgroups[0].workspaces[0].schedules, undefined);
    assert.deepEqual(again.webhooks, []);
    assert.equal((await apply(target, ['-f', at, '--prune'])).no_changes, true);
  });

  describe('a bad file is refused naming the path in it, and nothing is changed', () => {
    const good = () => ({
      apiVersion: 'acacia/v1',
      kind: 'State',
      workgroups: [
        {
          name: 'gamma',
          provider: 'aws/us-east-1',
          workspaces: [
            { name: 'one', db_users: [{ username: 'u1', password_env: 'ACACIA_PASSWORD_GAMMA_ONE' }] },
            { name: 'two' },
          ],
        },
      ],
    });
    const refused = async (name: string, content: unknown, at: RegExp, extra: Record<string, string> = {}) => {
      const before = await live(target);
      const res: CliResult = await cli(target, ['apply', '-f', file(name, content)], extra);
      assert.equal(res.code, 4, `exit status: ${res.stderr}`);
      assert.match(res.stderr, at);
      assert.equal(res.stdout, '');
      assert.equal(await live(target), before);
    };

    it('wrong kind or apiVersion', async () => {
      await refused('kind.yaml', { ...good(), kind: 'Deployment' }, /kind\.yaml: kind: not an Acacia state file/);
      await refused('version.yaml', { ...good(), apiVersion: 'v1' }, /apiVersion: not an Acacia state file/);
    });
    it('an unknown field', async () => {
      const state = good();
      (state.workgroups[0]!.workspaces[1] as Record<string, unknown>).colour = 'blue';
      await refused('unknown.yaml', state, /workgroups\[0\]\.workspaces\[1\]\.colour: is not a known field/);
    });
    it('a literal password', async () => {
      const state = good();
      (state.workgroups[0]!.workspaces[0]!.db_users![0] as Record<string, unknown>).password = PASSWORD;
      await refused(
        'password.yaml',
        state,
        /workgroups\[0\]\.workspaces\[0\]\.db_users\[0\]\.password: secrets are not written in the file/,
      );
    });
    it('a password variable that is not set', async () => {
      await refused(
        'env.yaml',
        good(),
        /workspaces\[0\]\.db_users\[0\]\.password_env: the environment variable ACACIA_PASSWORD_GAMMA_ONE /,
      );
    });
    it('a bad or repeated name', async () => {
      const state = good();
      state.workgroups[0]!.workspaces[1]!.name = '';
      await refused('empty.yaml', state, /workgroups\[0\]\.workspaces\[1\]\.name: /);
      const twice = good();
      twice.workgroups[0]!.workspaces[1]!.name = 'ONE';
      await refused('twice.yaml', twice, /workgroups\[0\]\.workspaces\[1\]\.name: "ONE" is also/, {
        ACACIA_PASSWORD_GAMMA_ONE: PASSWORD,
      });
      const bidi = good();
      bidi.workgroups[0]!.name = 'ga\u202emma';
      await refused('bidi.yaml', bidi, /workgroups\[0\]\.name: must not contain control characters/);
    });
    it('an unknown provider', async () => {
      const state = good();
      state.workgroups[0]!.provider = 'aws/nowhere-1';
      await refused('provider.yaml', state, /workgroups\[0\]\.provider: no cloud provider/, {
        ACACIA_PASSWORD_GAMMA_ONE: PASSWORD,
      });
    });
  });

  describe('serve --seed', () => {
    const seed = {
      apiVersion: 'acacia/v1',
      kind: 'State',
      workgroups: [
        {
          name: 'seeded',
          provider: 'aws/us-east-1',
          allow_list: [{ cidr: '10.1.0.0/16' }],
          workspaces: [{ name: 'ready', workspace_type_name: 'TG-00' }],
        },
      ],
    };
    const names = async (client: AcaciaClient) =>
      resultOf(await client.workgroups.list())
        .map((w) => w.name)
        .sort();

    it('applies a file before reporting ready', async () => {
      const store = await freshStore();
      const server = await serveProcess(store, newKeyText(), { ...settings, ACACIA_SEED: file('seed.yaml', seed) });
      try {
        assert.deepEqual(await names(server.client), ['seeded']);
        // The seed waited for its workspace (on the manual clock): it is Active when the server says it is ready.
        const [wg] = resultOf(await server.client.workgroups.list());
        assert.deepEqual(
          wg!.workspaces.map((w) => [w.name, w.status]),
          [['ready', 'Active']],
        );
        assert.match(server.output.stderr, /seed/);
      } finally {
        await stopProcess(server.child);
      }
    });

    it('applies every *.yaml and *.yml of a folder in name order (--seed)', async () => {
      const folder = path.join(dir, 'seeds');
      mkdirSync(folder);
      writeFileSync(path.join(folder, '1-first.yaml'), toYaml(seed));
      // The second file names the first one's workgroup too: it was applied before.
      const second = { ...seed, workgroups: [...seed.workgroups, { name: 'second', provider: 'aws/us-east-1' }] };
      writeFileSync(path.join(folder, '2-second.yml'), toYaml(second));
      writeFileSync(path.join(folder, 'notes.txt'), 'not a state file');
      const store = await freshStore();
      const key = newKeyText();
      const child = spawnCli(['serve', '--seed', folder], {
        ...settings,
        ...storeEnv(store),
        ACACIA_BOOTSTRAP_API_KEY: key,
        ACACIA_PORT: '0',
        ACACIA_GATEWAY_PORT: '0',
      });
      try {
        const url = await listeningUrl(child, { stdout: '', stderr: '' });
        const client = new AcaciaClient({ baseUrl: url, apiKey: key });
        assert.deepEqual(await names(client), ['second', 'seeded']);
      } finally {
        await stopProcess(child);
      }
    });

    it('a failing seed stops the server with the reason and a non-zero exit', async () => {
      const store = await freshStore();
      const bad = file('bad-seed.yaml', { ...seed, workgroups: [{ name: 'x', provider: 'aws/us-east-1', size: 1 }] });
      const res = await runCli(['serve', '--seed', bad], {
        ...settings,
        ...storeEnv(store),
        ACACIA_BOOTSTRAP_API_KEY: newKeyText(),
        ACACIA_PORT: '0',
        ACACIA_GATEWAY_PORT: '0',
      });
      // A state file's problem is a bad request (exit 4), named by its file and path.
      assert.equal(res.code, 4, res.stderr);
      assert.match(res.stderr, /bad-seed\.yaml: workgroups\[0\]\.size: is not a known field/);
      assert.doesNotMatch(res.stderr, /Acacia listening/);
    });
  });
});
