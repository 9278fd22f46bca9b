import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { readProfiles } from '../src/cli/profiles.js';
import { until } from '../src/cli/server-state.js';
import { isPidAlive } from '../src/process-alive.js';
import { cleanEnv, cliCommand, listeningUrl, runCli, storeEnv } from './helpers/cli.js';
import { stopProcess } from './helpers/serve.js';
import { freshStore, storeName, type StoreLocation } from './helpers/server.js';

/** Whether a listener can take the URL's port now (the server that had it let it go). */
async function portFree(url: string): Promise<boolean> {
  const server = net.createServer();
  const port = Number(new URL(url).port);
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe(`serve --detach, status, stop (${storeName})`, () => {
  let configHome: string;
  let store: StoreLocation;
  /** The settings of every server here: the test store, free ports; the CLI's profiles of this file. */
  let env: Record<string, string>;

  before(async () => {
    configHome = mkdtempSync(path.join(tmpdir(), 'acacia-lifecycle-config-'));
    store = await freshStore();
    env = { ...storeEnv(store), ACACIA_PORT: '0', ACACIA_GATEWAY_PORT: '0', XDG_CONFIG_HOME: configHome };
  });
  after(async () => {
    await runCli(['stop'], env);
    await store.dispose();
    rmSync(configHome, { recursive: true, force: true });
  });

  it('detaches once ready, reports status, refuses a second, stops, frees the ports and says down', async () => {
    // A profile of the user's, current: serve adds `local` beside it and leaves the choice alone.
    const other = await runCli(
      ['config', 'set', 'other', '--url', 'http://127.0.0.1:9', '--api-key', 'k', '--use'],
      env,
    );
    assert.equal(other.code, 0, other.stderr);

    const started = await runCli(['serve', '--detach', '-o', 'json'], env);
    assert.equal(started.code, 0, started.stderr);
    const info = json(started.stdout);
    const url = info.url as string;
    const gatewayUrl = info.gateway_url as string;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(gatewayUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(isPidAlive(info.pid as number));

    // Ready means usable: the store, the engine and the gateway.
    const ready = await new AcaciaClient({ baseUrl: url }).ready();
    assert.equal(ready.status, 200);
    assert.deepEqual(resultOf(ready), { status: 'ready', checks: { store: true, engine: true, gateway: true } });

    // The state file: the process and its addresses, owner-only, nothing secret.
    const stateFile = path.join(store.dataDir, 'server.json');
    assert.equal(statSync(stateFile).mode & 0o777, 0o600);
    const state = json(readFileSync(stateFile, 'utf8'));
    assert.deepEqual([state.pid, state.url, state.gateway_url], [info.pid, url, gatewayUrl]);
    const key = readFileSync(path.join(store.dataDir, 'bootstrap-key'), 'utf8').trim();
    assert.ok(!readFileSync(stateFile, 'utf8').includes(key));
    assert.ok(!readFileSync(path.join(store.dataDir, 'acacia.log'), 'utf8').includes(key), 'the key is not logged');

    const profiles = readProfiles(path.join(configHome, 'acacia', 'config.json'));
    assert.equal(profiles.current, 'other', "the user's choice of profile stays");
    assert.deepEqual(profiles.profiles.other, { url: 'http://127.0.0.1:9', api_key: 'k' });
    assert.deepEqual(profiles.profiles.local, { url, api_key_file: path.join(store.dataDir, 'bootstrap-key') });
    const viaProfile = await runCli(['--profile', 'local', 'workgroups', 'list', '-o', 'json'], env);
    assert.equal(viaProfile.code, 0, viaProfile.stderr);

    const status = await runCli(['status', '-o', 'json'], env);
    assert.equal(status.code, 0, status.stderr);
    const up = json(status.stdout);
    assert.equal(up.status, 'up');
    assert.deepEqual([up.pid, up.url, up.gateway_url, up.console_url], [info.pid, url, gatewayUrl, `${url}/console`]);
    assert.deepEqual([up.driver, up.clock, up.fault_injection, up.sim_speed], ['simulated', 'system', false, 0.02]);
    assert.equal(up.store, store.databaseUrl ? 'postgres' : 'sqlite');
    assert.equal(typeof up.version, 'string');
    assert.ok((up.uptime_seconds as number) >= 0);
    assert.ok(!Number.isNaN(Date.parse(up.now as string)));
    if (store.databaseUrl) {
      const dbUrl = new URL(store.databaseUrl);
      assert.match(up.store_location as string, new RegExp(`^postgres postgres://\\w+@${dbUrl.host}/`));
      if (dbUrl.password) assert.ok(!(up.store_location as string).includes(dbUrl.password));
    } else assert.equal(up.store_location, `sqlite ${path.join(store.dataDir, 'acacia.db')}`);

    const second = await runCli(['serve', '--detach'], env);
    assert.equal(second.code, 14, second.stderr);
    assert.match(second.stderr, new RegExp(`^error: a server of .* runs already \\(pid ${info.pid}, API ${url}\\)`));

    const stopped = await runCli(['stop', '-o', 'json'], env);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.deepEqual(json(stopped.stdout), { stopped: true, pid: info.pid, url, gateway_url: gatewayUrl });
    assert.equal(isPidAlive(info.pid as number), false);
    assert.equal(existsSync(stateFile), false, 'the state file is removed');
    assert.equal(await portFree(url), true, 'the API port is free');
    assert.equal(await portFree(gatewayUrl), true, 'the gateway port is free');

    const down = await runCli(['status', '-o', 'json', '--url', url], env);
    assert.equal(down.code, 13, down.stderr);
    assert.equal(json(down.stdout).status, 'down');
    assert.match(down.stderr, /^down: nothing answers at http:/);

    const again = await runCli(['stop'], env);
    assert.equal(again.code, 13);
    assert.match(again.stderr, /^error: no server runs from /);
  });

  it('--detach with a bad setting ends at once with the message, or with the start-up error', async () => {
    const bad = await runCli(['serve', '--detach'], { ...env, ACACIA_SIM_SPEED: 'slow' });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: invalid setting: ACACIA_SIM_SPEED \(--sim-speed\) must be fast, realistic/);

    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const busy = await runCli(['serve', '--detach'], { ...env, ACACIA_PORT: String(port) });
      assert.equal(busy.code, 1, busy.stderr);
      assert.match(busy.stderr, new RegExp(`^error: the server did not start: .*ACACIA_PORT.*${port}`));
      assert.equal(existsSync(path.join(store.dataDir, 'server.json')), false, 'no record of a server is left');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('logs JSON lines when stdout is not a terminal, text lines when asked', async () => {
    for (const format of ['auto', 'text'] as const) {
      const [node, ...args] = cliCommand;
      const child = spawn(node, [...args, 'serve'], {
        env: { ...cleanEnv(), ...env, ACACIA_LOG_FORMAT: format },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output = { stdout: '', stderr: '' };
      try {
        await listeningUrl(child, output);
        assert.ok(await until(() => output.stdout.includes('Acacia listening'), 10_000), output.stdout);
        const line = output.stdout.split('\n').find((l) => l.includes('Acacia listening'))!;
        if (format === 'auto') assert.equal(json(line).level, 30);
        else assert.match(line, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}Acacia listening: API http:\S+ .*store=/);
      } finally {
        await stopProcess(child, 'SIGTERM');
      }
    }
  });

  it('stops when the process that started it is killed without passing the signal on, as npx is', async () => {
    // A shell that runs the command as its child (`; true` keeps it from exec'ing), as npm exec does.
    const command = [...cliCommand, 'serve'].map((a) => `'${a}'`).join(' ');
    const wrapper = spawn('sh', ['-c', `${command}; true`], {
      env: { ...cleanEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = { stdout: '', stderr: '' };
    const url = await listeningUrl(wrapper, output);
    const gatewayUrl = /, gateway (http:\/\/\S+)/.exec(output.stderr)![1]!;
    const { pid } = resultOf(await new AcaciaClient({ baseUrl: url }).serverStatus());
    assert.notEqual(pid, wrapper.pid);
    await stopProcess(wrapper, 'SIGKILL');
    assert.ok(await until(() => !isPidAlive(pid), 30_000), 'the server exits once its parent is gone');
    assert.equal(await portFree(url), true);
    assert.equal(await portFree(gatewayUrl), true);
    assert.equal(existsSync(path.join(store.dataDir, 'server.json')), false);
  });

  it('SIGTERM to the serve process frees its ports and its record', async () => {
    const [node, ...args] = cliCommand;
    const child = spawn(node, [...args, 'serve'], {
      env: { ...cleanEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = { stdout: '', stderr: '' };
    const url = await listeningUrl(child, output);
    const gatewayUrl = /, gateway (http:\/\/\S+)/.exec(output.stderr)![1]!;
    assert.ok(existsSync(path.join(store.dataDir, 'server.json')), 'an attached server records itself too');
    const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`${code ?? signal}`)));
    child.kill('SIGTERM');
    assert.equal(await exited, '0', output.stderr + output.stdout.slice(-2000));
    assert.equal(await portFree(url), true);
    assert.equal(await portFree(gatewayUrl), true);
    assert.equal(existsSync(path.join(store.dataDir, 'server.json')), false);
  });
});
