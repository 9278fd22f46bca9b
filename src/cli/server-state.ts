import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import type { Config } from '../config.js';
import { isPidAlive } from '../process-alive.js';

/**
 * The server a data directory runs: `acacia serve` records it in `server.json` there (mode
 * 0600, no secret), `acacia status` and `acacia stop` read it. One file per data directory:
 * the first `serve` of a directory records itself; others on the same store do not.
 */
export interface ServerState {
  pid: number;
  /** Empty while the server starts (the addresses are not known before it listens). */
  url: string;
  gateway_url: string;
  console_url: string;
  started_at: string;
  /** Where the store is: the SQLite file, or PostgreSQL's URL without its password and parameters. */
  store: string;
  /** The log file of a server started with --detach. */
  log_file?: string;
  detached: boolean;
}

export const STATE_FILE = 'server.json';
export const LOG_FILE = 'acacia.log';

export const statePath = (dataDir: string) => path.join(dataDir, STATE_FILE);

/** The data directory `status` and `stop` look in: --data-dir, ACACIA_DATA_DIR, or ./data, as `serve` reads it. */
export function dataDirOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(flag ?? (env.ACACIA_DATA_DIR?.trim() || './data'));
}

/** Where the store is, with nothing secret in it. */
export function storeLocation(config: Readonly<Pick<Config, 'databaseUrl' | 'dataDir'>>): string {
  if (config.databaseUrl === undefined) return `sqlite ${path.join(config.dataDir, 'acacia.db')}`;
  try {
    const url = new URL(config.databaseUrl);
    url.password = '';
    // Parameters may carry a password or key paths: none is needed to say where the store is.
    url.search = '';
    return `postgres ${url.toString()}`;
  } catch {
    return 'postgres';
  }
}

export function readState(dataDir: string): ServerState | undefined {
  let text: string;
  try {
    text = readFileSync(statePath(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const state = JSON.parse(text) as ServerState;
    return Number.isInteger(state.pid) && state.pid > 0 ? state : undefined;
  } catch {
    // Half a file is no record: whoever reads it next may write a new one.
    return undefined;
  }
}

/** Written whole (a temporary file renamed over it), readable by the owner only. */
export function writeState(dataDir: string, state: ServerState): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = statePath(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** Removes the record if it is still the given process's (another may have replaced it). */
export function removeState(dataDir: string, pid?: number): void {
  const state = readState(dataDir);
  if (pid !== undefined && state !== undefined && state.pid !== pid) return;
  rmSync(statePath(dataDir), { force: true });
}

/** The record of a live server of the directory, or undefined (a stale record is left to be replaced). */
export function runningState(dataDir: string): ServerState | undefined {
  const state = readState(dataDir);
  return state && isPidAlive(state.pid) ? state : undefined;
}

/** Whether something accepts connections at the URL's host and port. */
export function accepting(url: string): Promise<boolean> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(false);
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `everyMs` until it holds or `timeoutMs` passes; whether it held. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await pause(everyMs);
  }
}
