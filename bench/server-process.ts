import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, spawnCli, storeEnv } from '../test/helpers/cli.js';
import type { StoreLocation } from '../test/helpers/store-location.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** An `acacia serve` child process on loopback. */
export interface ServerProcess {
  url: string;
  pid: number;
  apiKey: string;
  /** Starts a new peak-RSS window (Linux: clear_refs 5 resets VmHWM). */
  resetPeakRss(): void;
  /** Peak resident set size in bytes since the last reset (or since start). */
  peakRss(): number;
  stop(): Promise<void>;
}

/** A port free right now on loopback; the server is told to listen on it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** `acacia <args>` from the sources of another checkout (its own dependencies), to compare in one run. */
function serveFrom(checkout: string) {
  return (args: string[], env: Record<string, string>): ChildProcess =>
    spawn(process.execPath, ['--import', 'tsx', path.join(checkout, 'src/cli/index.ts'), ...args], {
      cwd: checkout,
      env: { ...cleanEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
}

function statusField(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(/(\d+)/.exec(line)![1]) * 1024 : 0;
}

/**
 * Starts the real server from the sources (through tsx, as the tests do), so it measures the
 * code as it stands rather than a build that may be stale. Logs stay at warn: at info, a line
 * per request would measure the log pipe rather than the API. The port is chosen here, so no
 * start-up output needs reading.
 */
export async function startServer(
  store: StoreLocation,
  opts: { apiKey: string; configFile?: string; env?: Record<string, string>; root?: string },
): Promise<ServerProcess> {
  const port = await freePort();
  const serve = opts.root ? serveFrom(opts.root) : spawnCli;
  const child: ChildProcess = serve(['serve'], {
    ACACIA_HOST: '127.0.0.1',
    ACACIA_PORT: String(port),
    ACACIA_GATEWAY_PORT: '0',
    ACACIA_BOOTSTRAP_API_KEY: opts.apiKey,
    ACACIA_RATE_LIMIT: '0',
    ACACIA_LOG_LEVEL: 'warn',
    ACACIA_SIM_SPEED: '0',
    ACACIA_FAULT_INJECTION: 'on',
    ...storeEnv(store),
    ...(opts.configFile ? { ACACIA_CONFIG: opts.configFile } : {}),
    ...opts.env,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let gone = false;
  void exited.then(() => (gone = true));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (gone) throw new Error(`server exited during start-up:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const pid = child.pid!;
  let sampledPeak = 0;
  let canReset = true;
  return {
    url,
    pid,
    apiKey: opts.apiKey,
    resetPeakRss() {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        canReset = false;
      }
      sampledPeak = statusField(pid, 'VmRSS');
    },
    peakRss() {
      // Without clear_refs, VmHWM is the lifetime peak; the current RSS is the best floor then.
      return canReset ? statusField(pid, 'VmHWM') : Math.max(sampledPeak, statusField(pid, 'VmRSS'));
    },
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      if (code !== 0 && code !== null) process.stderr.write(`server exited with ${code}:\n${output}\n`);
    },
  };
}
