import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { tableIn, tableRows } from '../src/cli/doc-tables.js';
import { routeTable } from '../src/cli/route-table.js';
import { apiEndpoints, type EndpointId } from '../src/schemas/endpoints/index.js';
import { cleanEnv, cliCommand, runCli } from './helpers/cli.js';
import { freshStore, storeName } from './helpers/server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** The fenced `sh` block of the README section titled `title`. */
function shBlock(title: string): string {
  const section = readme.split(/^## /m).find((s) => s.startsWith(`${title}\n`));
  const block = section && /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(block, `README has a sh block under "## ${title}"`);
  return block[1]!;
}

describe(`README.md (${storeName})`, () => {
  it('lists every route of the endpoint table with its CLI command (npm run routes writes it)', () => {
    assert.deepEqual(tableRows(tableIn(readme, 'routes')), tableRows(routeTable()));
  });

  it('has a CLI command for every endpoint but the by-workspace-id twins and health', () => {
    const without = tableRows(routeTable())
      .filter((cells) => cells[2] === '—')
      .map((cells) => `${cells[0]} ${cells[1]}`);
    const expected = (
      [
        'listSchedulesShort',
        'getScheduleShort',
        'updateScheduleShort',
        'deleteScheduleShort',
        'listWorkspaceBackups',
        'getRestoreStatus',
        'setBackupScheduleShort',
        'getBackupSchedule',
        'deleteApiKey',
        // /org/api-keys: the real service's path to the keys `acacia apikeys` manages.
        'listOrgApiKeys',
        'createOrgApiKey',
        'deleteOrgApiKey',
        // The console's way to a workspace's graph; clients reach it through the gateway.
        'graphRequest',
        'health',
        'ready',
      ] as EndpointId[]
    ).map((id) => `${apiEndpoints[id].method} \`${apiEndpoints[id].path.replace('/controller/v4/v2', '')}\``);
    assert.deepEqual(without.sort(), expected.sort());
  });

  it('keeps the set-up commands CI runs', () => {
    const setup = shBlock('Set up');
    assert.match(setup, /^npm ci && npx acacia serve --detach$/m);
    assert.match(setup, /^npm ci && npm test$/m);
    assert.match(readFileSync(path.join(root, '.ci/run'), 'utf8'), /^npm test$/m);
  });

  it(
    'runs the quick start as written, command by command, against a server it starts',
    { timeout: 300_000 },
    async () => {
      const store = await freshStore();
      const cwd = mkdtempSync(path.join(tmpdir(), 'acacia-quick-start-'));
      // The settings the server reads from the environment: free ports, the test store. The pace is the default.
      const env = {
        ...cleanEnv(),
        XDG_CONFIG_HOME: path.join(cwd, 'config'),
        ACACIA_PORT: '0',
        ACACIA_GATEWAY_PORT: '0',
        ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
      };
      const [node, ...cli] = cliCommand;
      const prelude = [
        'set -euo pipefail',
        'set -x',
        // `npx acacia` runs the CLI from these sources, as it does in a checkout.
        `npx() { if [ "$1" = acacia ]; then shift; ` +
          `${[node, ...cli].map((a) => `'${a}'`).join(' ')} "$@"; else command npx "$@"; fi; }`,
      ].join('\n');
      /** Runs part of the block in `cwd`; its exit status and output. */
      const run = async (script: string) => {
        const child = spawn('bash', ['-c', `${prelude}\n${script}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        return { code, stdout, stderr };
      };
      try {
        // The block as written; only the gateway's address differs (the server listens on a free port):
        // the test reads it from the server's state file once it runs.
        const [work, stop] = shBlock('Quick start')
          .replace(
            /^(npx acacia serve --detach)$/m,
            `$1\nGATEWAY=$(node -p 'require("./data/server.json").gateway_url')`,
          )
          .replaceAll('http://127.0.0.1:14240', '$GATEWAY')
          .split(/^(?=# \d+\. Stop the server)/m);
        assert.ok(stop?.includes('npx acacia stop'), 'the block ends by stopping the server');
        const started = Date.now();
        const first = await run(work!);
        assert.equal(first.code, 0, `the quick start stopped:\n${first.stderr}`);
        assert.match(first.stdout, /"message":\s*"Hello GSQL"/, 'step 7 reached the workspace through the gateway');
        assert.match(first.stdout, /"status":\s*"up"/, 'step 2 shows the server');

        // What it left: the workspace paused, with one backup.
        const state = JSON.parse(readFileSync(path.join(cwd, 'data', 'server.json'), 'utf8')) as { url: string };
        const key = readFileSync(path.join(cwd, 'data', 'bootstrap-key'), 'utf8').trim();
        const client = new AcaciaClient({ baseUrl: state.url, apiKey: key });
        const [wg] = resultOf(await client.workgroups.list());
        assert.equal(wg?.name, 'demo');
        const [ws] = wg!.workspaces;
        assert.equal(ws?.name, 'analytics');
        assert.equal(resultOf(await client.workspaces.get(wg!.workgroup_id, ws!.workspace_id)).status, 'Stopped');
        const backups = resultOf(await client.backups.list(wg!.workgroup_id, ws!.workspace_id));
        assert.deepEqual(
          backups.map((b) => [b.tag, b.status]),
          [['first', 'Succeeded']],
        );

        const last = await run(stop!);
        assert.equal(last.code, 0, `the server did not stop:\n${last.stderr}`);
        await assert.rejects(client.health(), 'nothing answers once it stopped');
        // The README says seconds, not minutes: generous for a machine running other test files.
        assert.ok(Date.now() - started < 240_000, `the quick start took ${Date.now() - started} ms`);
      } finally {
        await runCli(['stop', '--data-dir', path.join(cwd, 'data')], env as Record<string, string>);
        rmSync(cwd, { recursive: true, force: true });
        await store.dispose();
      }
    },
  );
});
