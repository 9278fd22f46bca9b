import type { ChildProcess } from 'node:child_process';
import { AcaciaClient } from '../../src/client/index.js';
import { listeningUrl, spawnCli, storeEnv } from './cli.js';
import type { StoreLocation } from './server.js';

/** A spawned `acacia serve` process on a test store, and a client with the bootstrap key. */
export interface ServeProcess {
  child: ChildProcess;
  client: AcaciaClient;
  url: string;
  /** The data-plane gateway's URL. */
  gatewayUrl: string;
  /** Everything the process wrote so far. */
  output: { stdout: string; stderr: string };
}

/**
 * Starts `acacia serve` on the store with the shared manual clock, fault injection on and
 * free ports; `env` adds or overrides settings (e.g. ACACIA_SIM_SPEED).
 */
export async function serveProcess(
  store: StoreLocation,
  key: string,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawnCli(['serve'], {
    ...storeEnv(store),
    ACACIA_PORT: '0',
    ACACIA_GATEWAY_PORT: '0',
    ACACIA_BOOTSTRAP_API_KEY: key,
    ACACIA_CLOCK: 'manual',
    ACACIA_FAULT_INJECTION: 'on',
    // The realistic pace the suite's durations were written for; a test may ask for another.
    ACACIA_SIM_SPEED: 'realistic',
    ...env,
  });
  const output = { stdout: '', stderr: '' };
  try {
    const url = await listeningUrl(child, output);
    const gatewayUrl = /, gateway (http:\/\/\S+)/.exec(output.stderr)![1]!;
    return { child, client: new AcaciaClient({ baseUrl: url, apiKey: key }), url, gatewayUrl, output };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/** Sends `signal` and waits for the process to exit (at once if it already has). */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}
