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
import { cleanEnv, cliCommand, listeningUrl, spawnCli } from './helpers/cli.js';
import { stopProcess } from './helpers/serve.js';
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

  it('has a CLI command for every endpoint but the by-workspace-id twins, health and the test clock', () => {
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
        'setBackupScheduleShort',
        'deleteApiKey',
        'health',
        'ready',
        'moveTestClock',
      ] as EndpointId[]
    ).map((id) => `${apiEndpoints[id].method} \`${apiEndpoints[id].path.replace('/controller/v4/v2', '')}\``);
    assert.deepEqual(without.sort(), expected.sort());
  });

  it('keeps the set-up commands CI runs', () => {
    const setup = shBlock('Set up');
    assert.match(setup, /^npm ci && npx acacia serve$/m);
    assert.match(setup, /^npm ci && npm test$/m);
    assert.match(readFileSync(path.join(root, '.ci/run'), 'utf8'), /^npm test$/m);
  });

  it(
    'runs the quick start as written, command by command, against a server it starts',
    { timeout: 300_000 },
    async () => {
      const store = await freshStore();
      const cwd = mkdtempSync(path.join(tmpdir(), 'acacia-quick-start-'));
      // `npx acacia serve` in the directory the quick start runs in: its data directory is ./data.
      const server = spawnCli(
        ['serve'],
        {
          ACACIA_PORT: '0',
          ACACIA_GATEWAY_PORT: '0',
          ACACIA_SIM_SPEED: '0',
          ACACIA_LOG_LEVEL: 'warn',
          ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
        },
        cwd,
      );
      const output = { stdout: '', stderr: '' };
      try {
        const url = await listeningUrl(server, output);
        const gateway = /gateway http:\/\/(\S+)\n/.exec(output.stderr)![1]!;
        assert.ok(
          output.stderr.includes(`npx acacia config set local --url ${url} --api-key-file data/bootstrap-key --use`),
          'step 1 is the line the server printed',
        );
        // The block as written; only the addresses differ (the test's server listens on free ports).
        const script = shBlock('Quick start')
          .replaceAll('http://127.0.0.1:8080', url)
          .replaceAll('127.0.0.1:14240', gateway);
        const [node, ...cli] = cliCommand;
        const prelude = [
          'set -euo pipefail',
          'set -x',
          // `npx acacia` runs the CLI from these sources, as it does in a checkout.
          `npx() { if [ "$1" = acacia ]; then shift; ` +
            `${[node, ...cli].map((a) => `'${a}'`).join(' ')} "$@"; else command npx "$@"; fi; }`,
        ].join('\n');
        const run = spawn('bash', ['-c', `${prelude}\n${script}`], {
          cwd,
          env: { ...cleanEnv(), XDG_CONFIG_HOME: path.join(cwd, 'config') },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        run.stdout.on('data', (d) => (stdout += d));
        run.stderr.on('data', (d) => (stderr += d));
        const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
        assert.equal(code, 0, `the quick start stopped:\n${stderr}`);
        assert.match(stdout, /"message":\s*"Hello GSQL"/, 'step 6 reached the workspace through the gateway');

        // What it left: the workspace paused, with one backup.
        const key = readFileSync(path.join(cwd, 'data', 'bootstrap-key'), 'utf8').trim();
        const client = new AcaciaClient({ baseUrl: url, apiKey: key });
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
      } finally {
        await stopProcess(server);
        rmSync(cwd, { recursive: true, force: true });
        await store.dispose();
      }
    },
  );
});
