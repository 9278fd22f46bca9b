import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { AcaciaClient } from '../client/index.js';
import type { Config } from '../config.js';
import { outputOf } from './context.js';
import { exitCodes, UsageError } from './exit-codes.js';
import { shown } from './local-profile.js';
import { LOG_FILE, runningState, until } from './server-state.js';

/** What --detach prints, and sends from the server to the command that started it. */
export interface Started {
  pid: number;
  url: string;
  gateway_url: string;
  console_url: string;
  log_file: string;
  state_file: string;
}

/** The tail of the log file from `offset`: what a server that failed to start said (bounded). */
function logSince(file: string, offset: number): string {
  const fd = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    const start = Math.max(offset, size - 8192);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    readSync(fd, buffer, 0, buffer.length, start);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The startup error lines of a failed server's output, else its last lines. */
function startupError(text: string): string {
  const errors = text.split('\n').filter((l) => l.startsWith('error:'));
  if (errors.length > 0) return errors.map((l) => l.slice('error:'.length).trim()).join('\n');
  return text.trim().split('\n').slice(-10).join('\n') || 'the server exited without a word';
}

/**
 * `serve --detach`: the same command, run again as a background process of its own session
 * (so a terminal's Ctrl-C and hang-up do not reach it) logging to a file of the data directory.
 * Returns once it is ready (GET /readyz answers 200); a failure to start ends this with the
 * server's own message.
 */
export async function detach(cmd: Command, config: Readonly<Config>, timeoutMs: number): Promise<void> {
  const running = runningState(config.dataDir);
  if (running)
    throw new UsageError(
      `a server of ${shown(config.dataDir)} runs already (pid ${running.pid}, API ${running.url || 'starting'}); ` +
        '`acacia status` shows it, `acacia stop` stops it',
      exitCodes.running,
    );
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const logFile = path.join(config.dataDir, LOG_FILE);
  const log = openSync(logFile, 'a', 0o600);
  const offset = statSync(logFile).size;
  const args = process.argv.slice(2).filter((a) => a !== '--detach');
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args, '--detached-child'], {
    detached: true,
    stdio: ['ignore', log, log, 'ipc'],
    env: process.env,
  });
  closeSync(log);
  const started = await new Promise<Started>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      if (child.connected) child.disconnect();
      child.unref();
      reject(new UsageError(`the server did not listen within ${timeoutMs / 1000} s; see ${shown(logFile)}`, 1));
    }, timeoutMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as Started);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const said = startupError(logSince(logFile, offset));
      reject(new UsageError(`the server did not start: ${said}`, code && code > 0 ? code : 1));
    });
  });
  child.removeAllListeners('exit');
  // Usable, not only listening: the store, the engine and the gateway say so.
  const client = new AcaciaClient({ baseUrl: started.url });
  const ready = await until(async () => {
    try {
      return (await client.ready()).status === 200;
    } catch {
      return false;
    }
  }, timeoutMs);
  if (!ready) {
    child.kill('SIGTERM');
    child.disconnect();
    child.unref();
    throw new UsageError(
      `the server (pid ${started.pid}) was not ready in time and is stopped; see ${shown(logFile)}`,
      1,
    );
  }
  child.disconnect();
  child.unref();
  const output = outputOf(cmd);
  if (output.quiet) return output.out(started.url);
  if (output.format !== 'table') return output.out(JSON.stringify(started, null, 2));
  output.out(
    `Acacia runs in the background (pid ${started.pid})\n` +
      `  API      ${started.url}\n  gateway  ${started.gateway_url}\n  console  ${started.console_url}\n` +
      `  logs     ${shown(started.log_file)}\n` +
      `\`npx acacia status\` shows it, \`npx acacia stop\` stops it.`,
  );
}
