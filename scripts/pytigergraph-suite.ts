// `node --import tsx scripts/pytigergraph-suite.ts <pyTigerGraph checkout> [pytest arguments…]`
//
// Runs pyTigerGraph's own test suite, unchanged, against a workspace of a local-driver Acacia:
// the stock tests/testserver.json (http://127.0.0.1, ports 9000 and 14240, tigergraph/tigergraph,
// getToken) reaches the workspace through the gateway on 14240, which sends requests naming no
// workspace to it (ACACIA_GATEWAY_DEFAULT_WORKSPACE) and answers on 9000 as well
// (ACACIA_GATEWAY_EXTRA_PORTS). The graph is prepared by tests/testserver.gsql, sent
// through pyTigerGraph's own conn.gsql(). Prints pytest's counts and each failure's reason.
// Needs Python 3 with requests, httpx, aiohttp, validators, typing-extensions and pytest (Debian's
// python3-* packages); pyTigerGraph runs from the checkout (PYTHONPATH), never installed.
// Not part of `npm test`: it takes minutes and a pyTigerGraph checkout.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/domain/ids.js';
import { hashPassword } from '../src/domain/passwords.js';
import { startServer, type RunningServer } from '../src/main.js';
import { insertDbUser } from '../src/store/repositories/db-users.js';
import { openStore } from '../src/store/store.js';

const [checkoutArg, ...pytestArgs] = process.argv.slice(2);
if (!checkoutArg || !existsSync(path.join(checkoutArg, 'tests', 'testserver.gsql'))) {
  console.error('usage: scripts/pytigergraph-suite.ts <pyTigerGraph checkout> [pytest arguments…]');
  process.exit(2);
}
const checkout = path.resolve(checkoutArg);
const python = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const gatewayPort = process.env.ACACIA_GATEWAY_PORT ?? '14240';
// Where the stock testserver.json sends REST++; the async client does not fall back to 14240/restpp.
const restppPort = process.env.RESTPP_PORT ?? '9000';
// The user of the stock testserver.json. The API's password rules refuse it (it contains the
// username), so it is written to the store directly, as TigerGraph's default install has it.
const dbUser = { username: 'tigergraph', password: 'tigergraph' };
const tgVersion = process.env.TG_VERSION ?? '4.2.1';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'acacia-pytg-'));
const log = createWriteStream(path.join(dataDir, 'acacia.log'));
const apiKey = `acacia_${randomBytes(24).toString('hex')}`;
const env = {
  ACACIA_DRIVER: 'local',
  ACACIA_DATA_DIR: dataDir,
  ACACIA_PORT: '0',
  ACACIA_GATEWAY_PORT: gatewayPort,
  ACACIA_BOOTSTRAP_API_KEY: apiKey,
  ACACIA_SIM_SPEED: '0',
  ACACIA_LOG_FORMAT: 'json',
};

const start = (extra: Record<string, string> = {}) =>
  startServer(loadConfig({ ...env, ...extra }), { logDestination: log, notice: () => {} });

/** Runs a command, its output passed through; resolves with its exit code. */
function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Creates the workgroup and the 4.x workspace; answers the workspace's id once it is Active. */
async function createWorkspace(server: RunningServer): Promise<{ wg: string; ws: string }> {
  const client = new AcaciaClient({ baseUrl: server.url, apiKey });
  const providers = resultOf(await client.cloudProviders.list());
  const provider = providers.find((p) => p.type === 'public');
  if (!provider) throw new Error('no public cloud provider');
  const wg = resultOf(await client.workgroups.create({ cloud_provider_id: provider.id, name: 'pytigergraph' }));
  const ws = resultOf(
    await client.workspaces.create(wg.workgroup_id, { name: 'pytigergraph-tests', tg_version: tgVersion }),
  );
  await waitActive(client, wg.workgroup_id, ws.workspace_id!);
  return { wg: wg.workgroup_id, ws: ws.workspace_id! };
}

async function waitActive(client: AcaciaClient, wg: string, ws: string): Promise<void> {
  const last = await client.waitForWorkspace(wg, ws, (w) => w.status === 'Active', { attempts: 600, intervalMs: 100 });
  if (last?.status !== 'Active') throw new Error(`the workspace did not become Active: ${JSON.stringify(last)}`);
}

/** Waits until the gateway serves the workspace to the database user (its process has started). */
async function waitServed(gatewayUrl: string): Promise<void> {
  const auth = `Basic ${Buffer.from(`${dbUser.username}:${dbUser.password}`).toString('base64')}`;
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${gatewayUrl}/restpp/echo`, { headers: { authorization: auth } }).catch(() => undefined);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the gateway never served the workspace');
}

const SUMMARY = String.raw`
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
failures = []
for case in root.iter("testcase"):
    name = case.get("classname", "").split(".")[-1] + "::" + case.get("name", "")
    bad = case.find("failure")
    if bad is None:
        bad = case.find("error")
    if bad is not None:
        counts["failed" if bad.tag == "failure" else "error"] += 1
        reason = (bad.get("message") or bad.text or "").strip().splitlines()
        failures.append((name, reason[0][:200] if reason else ""))
    elif case.find("skipped") is not None:
        counts["skipped"] += 1
    else:
        counts["passed"] += 1
total = sum(counts.values())
print()
print("pyTigerGraph suite: %d tests: %d passed, %d failed, %d errors, %d skipped" % (
    total, counts["passed"], counts["failed"], counts["error"], counts["skipped"]))
for name, reason in failures:
    print("FAIL %s: %s" % (name, reason))
`;

let server: RunningServer | undefined;
let exitCode = 1;
try {
  server = await start();
  const { wg, ws } = await createWorkspace(server);
  await server.close();
  server = undefined;

  const store = await openStore({ dataDir });
  const now = Date.now();
  const orgId = (
    await store.db.selectFrom('workspaces').select('org_id').where('id', '=', ws).executeTakeFirstOrThrow()
  ).org_id;
  await insertDbUser(store.db, {
    id: newId(),
    org_id: orgId,
    workspace_id: ws,
    username: dbUser.username,
    password_hash: await hashPassword(dbUser.password),
    created_at: now,
    updated_at: now,
  });
  await store.close();

  server = await start({ ACACIA_GATEWAY_DEFAULT_WORKSPACE: ws, ACACIA_GATEWAY_EXTRA_PORTS: restppPort });
  await waitActive(new AcaciaClient({ baseUrl: server.url, apiKey }), wg, ws);
  await waitServed(server.gatewayUrl);
  process.stdout.write(`workspace ${ws} served at ${server.gatewayUrl} (Acacia's files and log: ${dataDir})\n`);

  const pyEnv = {
    ...process.env,
    PYTHONPATH: `${checkout}${path.delimiter}${path.join(checkout, 'tests')}`,
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const setup = [
    'import sys',
    'sys.path.insert(0, "tests")',
    'from pyTigerGraphUnitTest import make_connection',
    'conn = make_connection()',
    'print(conn.gsql(open("tests/testserver.gsql").read()))',
  ].join('\n');
  process.stdout.write('--- tests/testserver.gsql through conn.gsql()\n');
  await run(python, ['-c', setup], { cwd: checkout, env: pyEnv });

  const junit = path.join(dataDir, 'pytest.xml');
  const files = pytestArgs.length > 0 ? pytestArgs : ['tests/test_pyTigerGraph*.py'];
  const expanded = files.flatMap((f) => (f.includes('*') ? globTests(f) : [f]));
  process.stdout.write('--- pytest\n');
  exitCode = await run(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${junit}`, ...expanded], {
    cwd: checkout,
    env: pyEnv,
  });
  if (existsSync(junit)) await run(python, ['-c', SUMMARY, junit], { cwd: checkout, env: pyEnv });
} finally {
  await server?.close();
  log.end();
  if (process.env.KEEP_DATA !== '1' && exitCode === 0) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);

/** The test files a pattern such as tests/test_pyTigerGraph*.py names, in name order. */
function globTests(pattern: string): string[] {
  const dir = path.dirname(pattern);
  const [prefix, suffix] = path.basename(pattern).split('*') as [string, string];
  return readdirSync(path.join(checkout, dir))
    .filter((n) => n.startsWith(prefix) && n.endsWith(suffix))
    .sort()
    .map((n) => path.join(dir, n));
}
