import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoreLocation } from './server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Environment that points the CLI at a test store. */
export function storeEnv(store: StoreLocation): Record<string, string> {
  return { ACACIA_DATA_DIR: store.dataDir, ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}) };
}

/**
 * A CLI config folder of this test process's own (XDG_CONFIG_HOME), removed when it exits: test
 * files run in parallel, and none may read or write the user's profiles or another file's.
 */
const configHome = mkdtempSync(path.join(tmpdir(), 'acacia-cli-config-'));
process.on('exit', () => rmSync(configHome, { recursive: true, force: true }));

/** The environment without Acacia's settings, so only those a test gives apply; the CLI's profiles in `configHome`. */
export function cleanEnv(): Record<string, string | undefined> {
  return {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('ACACIA_') && k !== 'DATABASE_URL'),
    ),
    XDG_CONFIG_HOME: configHome,
  };
}

/**
 * The command that runs the CLI from the sources, as `npx acacia` runs it from a checkout;
 * tsx by its full path, so it runs from any directory.
 */
export const cliCommand = [
  process.execPath,
  '--import',
  import.meta.resolve('tsx'),
  path.join(root, 'src/cli/index.ts'),
] as const;

/** Starts `acacia <args>` from the sources (in `cwd`, the checkout by default). */
export function spawnCli(args: string[], env: Record<string, string> = {}, cwd = root): ChildProcess {
  const [node, ...rest] = cliCommand;
  return spawn(node, [...rest, ...args], {
    cwd,
    env: { ...cleanEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], env: Record<string, string> = {}, cwd = root): Promise<CliResult> {
  const child = spawnCli(args, env, cwd);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

/** Resolves with the API URL once a spawned `acacia serve` says (on stderr) that it listens. */
export function listeningUrl(child: ChildProcess, output: { stdout: string; stderr: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    // Generous: with test files running in parallel, loading the sources through tsx can take a while.
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output.stderr}`)), 60_000);
    child.stdout!.on('data', (d) => (output.stdout += d));
    child.stderr!.on('data', (d) => {
      output.stderr += d;
      const m = /Acacia listening: API (http:\/\/\S+), gateway/.exec(output.stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${output.stderr}`));
    });
  });
}
