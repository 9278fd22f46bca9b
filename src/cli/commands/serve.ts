import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { AcaciaClient } from '../../client/index.js';
import type { Config } from '../../config.js';
import type { RunningServer } from '../../main.js';
import { outputOf } from '../context.js';
import { exitCodes, UsageError } from '../exit-codes.js';
import { profilePath, readProfiles, writeProfiles } from '../profiles.js';
import {
  LOG_FILE,
  removeState,
  runningState,
  statePath,
  storeLocation,
  until,
  writeState,
  type ServerState,
} from '../server-state.js';
import { startupProblem } from '../startup-errors.js';
import { addSettingFlags, configFrom, type Flags } from './settings-flags.js';

/** A path as the operator would type it from here: relative when under the current directory. */
const shown = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
};

/** The profile `serve` keeps pointing at the server it started. */
export const LOCAL_PROFILE = 'local';

/**
 * The command that makes a CLI profile of this server. It names where the key is, never the
 * key itself: the bootstrap key file, the variable it was given in, or a placeholder.
 */
export function profileLine(config: Readonly<Config>, url: string): string {
  const keyFile = path.join(config.dataDir, 'bootstrap-key');
  const key = config.bootstrapApiKey
    ? process.env.ACACIA_BOOTSTRAP_API_KEY === config.bootstrapApiKey
      ? '--api-key "$ACACIA_BOOTSTRAP_API_KEY"'
      : '--api-key <the key given as --bootstrap-api-key>'
    : existsSync(keyFile)
      ? `--api-key-file ${shown(keyFile)}`
      : '--api-key <an API key of your organisation>';
  return `npx acacia config set local --url ${url} ${key} --use`;
}

/**
 * Points the profile `local` at this server: its URL and, when the key is in the bootstrap
 * key file, that file (the key stays in it). Other profiles are left alone, and so is the
 * choice of the current one, unless there is none. A key given in the environment is not
 * written anywhere: the profile then has the URL only. Returns a line saying what was done.
 */
export function updateLocalProfile(config: Readonly<Config>, url: string): string {
  const keyFile = path.join(config.dataDir, 'bootstrap-key');
  const withFile = config.bootstrapApiKey === undefined && existsSync(keyFile);
  try {
    const file = readProfiles();
    file.profiles[LOCAL_PROFILE] = { url, ...(withFile ? { api_key_file: keyFile } : {}) };
    if (!file.current || !file.profiles[file.current]) file.current = LOCAL_PROFILE;
    writeProfiles(file);
    const current = file.current === LOCAL_PROFILE ? ' (current)' : ` (the current one stays ${file.current})`;
    const key = withFile ? `key file ${shown(keyFile)}` : 'no key: give one with --api-key or ACACIA_API_KEY';
    return `"${LOCAL_PROFILE}"${current}: ${url}, ${key}`;
  } catch (err) {
    // The server runs without it; the line below says how to make it by hand.
    return `"${LOCAL_PROFILE}" not written (${profilePath()}: ${(err as Error).message})`;
  }
}

const paceOf = (speed: number) => (speed === 0.02 ? 'fast' : speed === 1 ? 'realistic' : `x${speed}`);

/** What runs where, printed on stderr once the server listens (outside the log, whatever its level). */
export function banner(config: Readonly<Config>, server: RunningServer, profile: string): string {
  const rows: Array<[string, string]> = [
    ['console', `${server.url}/console`],
    [
      'driver',
      config.driver === 'simulated'
        ? `simulated, pace ${paceOf(config.simSpeed)} (ACACIA_SIM_SPEED=${config.simSpeed})`
        : config.driver,
    ],
    ['store', storeLocation(config)],
    ['clock', config.clock === 'manual' ? 'manual (POST /_test/clock moves it)' : 'system'],
    ['faults', config.faultInjection ? 'x_test_env accepted (ACACIA_FAULT_INJECTION=on)' : 'off'],
    ['profile', profile],
  ];
  return (
    // The first line is the one scripts look for.
    `Acacia listening: API ${server.url}, gateway ${server.gatewayUrl}\n` +
    rows.map(([k, v]) => `  ${k.padEnd(8)} ${v}\n`).join('') +
    `Use it from the CLI: ${profileLine(config, server.url)}\n`
  );
}

/**
 * Whether the process that started this one is still its parent. Node's process.ppid is read
 * once at start, so Linux's /proc says what the parent is now; elsewhere the parent's pid is
 * probed (a parent that exited but is not yet reaped still counts as there).
 */
function parentAlive(parent: number): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // `pid (name) state ppid …`: the name may hold spaces and parentheses, so count from its end.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
  } catch {
    try {
      process.kill(parent, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
}

/** What --detach prints, and sends from the server to the command that started it. */
interface Started {
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
async function detach(cmd: Command, config: Readonly<Config>, timeoutMs: number): Promise<void> {
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

/**
 * The server itself, in this process: attached to the terminal, or the background process of
 * --detach. It records itself in the data directory's state file unless another live server
 * has (several processes may serve one PostgreSQL store), and removes the record when it stops.
 */
async function serveHere(config: Readonly<Config>, detached: boolean): Promise<void> {
  const existing = runningState(config.dataDir);
  // A record this process will own: none, or a stale one (its process is gone).
  const owner = existing === undefined || existing.pid === process.pid;
  // Another --detach may have started since the command that started this one looked.
  if (detached && !owner)
    throw new UsageError(
      `a server of ${shown(config.dataDir)} runs already (pid ${existing.pid}, API ${existing.url || 'starting'})`,
      exitCodes.running,
    );
  const record = (state: Omit<ServerState, 'pid' | 'store' | 'detached'>) =>
    writeState(config.dataDir, {
      pid: process.pid,
      store: storeLocation(config),
      detached,
      ...state,
      ...(detached ? { log_file: path.join(config.dataDir, LOG_FILE) } : {}),
    });
  if (owner) record({ url: '', gateway_url: '', console_url: '', started_at: new Date().toISOString() });
  let server: RunningServer;
  try {
    const { startServer } = await import('../../main.js');
    // In the background the key goes to its file only: stderr is the log file there.
    const notice = detached
      ? () =>
          process.stderr.write(
            `Created organisation "default" and its first org-admin API key, saved in ` +
              `${path.join(config.dataDir, 'bootstrap-key')} (mode 0600).\n`,
          )
      : undefined;
    server = await startServer(config, notice ? { notice } : {});
    // Before the banner and the message to a detaching parent: ready means seeded.
    await (await import('../seed.js')).seedServer(config, server);
  } catch (err) {
    if (owner) removeState(config.dataDir, process.pid);
    throw err;
  }
  const consoleUrl = `${server.url}/console`;
  if (owner)
    record({
      url: server.url,
      gateway_url: server.gatewayUrl,
      console_url: consoleUrl,
      started_at: new Date().toISOString(),
    });
  let stopping = false;
  const stop = (reason: string, signal = true) => {
    // A second signal while it finishes its requests means now.
    if (stopping && signal) process.exit(1);
    if (stopping) return;
    stopping = true;
    server.logger.info({ reason }, 'shutting down: finishing in-flight requests');
    server.close().then(
      () => {
        if (owner) removeState(config.dataDir, process.pid);
        process.exit(0);
      },
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  // Before the banner: whoever reads it may signal at once.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (!detached) {
    process.on('SIGHUP', () => stop('SIGHUP'));
    // A wrapper that does not pass signals on (npx runs the command under a shell, and is
    // killed alone) leaves this process to init: its parent changing means whoever started
    // it is gone, so it stops as if told to.
    const parent = process.ppid;
    setInterval(() => {
      if (!parentAlive(parent)) stop('the process that started it exited', false);
    }, 500).unref();
  }
  const profile = owner
    ? updateLocalProfile(config, server.url)
    : `not updated: ${statePath(config.dataDir)} is another's`;
  process.stderr.write(banner(config, server, profile));
  if (process.send) {
    const started: Started = {
      pid: process.pid,
      url: server.url,
      gateway_url: server.gatewayUrl,
      console_url: consoleUrl,
      log_file: path.join(config.dataDir, LOG_FILE),
      state_file: statePath(config.dataDir),
    };
    process.send(started);
  }
}

export function serveCommand(program: Command): void {
  addSettingFlags(
    program
      .command('serve')
      .description('Start the API server (and its engine and gateway) on the configured store')
      .option('--detach', 'run in the background (logs in the data directory) and return once it is ready')
      .option('--ready-timeout <seconds>', 'with --detach: how long to wait for the server to be ready', '60')
      .addOption(new Option('--detached-child').hideHelp())
      .addHelpText(
        'after',
        '\nEvery flag may instead be given as the environment variable named beside it; a flag wins.' +
          '\n`acacia status` shows what runs, `acacia stop` stops it (docs/cli.md).',
      ),
  ).action(
    async (flags: Flags & { detach?: boolean; detachedChild?: boolean; readyTimeout?: string }, cmd: Command) => {
      let config: Readonly<Config> | undefined;
      try {
        config = configFrom(flags);
        const timeout = Number(flags.readyTimeout);
        if (!Number.isFinite(timeout) || timeout <= 0)
          throw new UsageError(`--ready-timeout must be a number of seconds (got "${flags.readyTimeout}")`);
        if (flags.detach) return await detach(cmd, config, timeout * 1000);
        await serveHere(config, flags.detachedChild === true);
      } catch (err) {
        // A background server that failed says why in its log; the open channel would keep it alive.
        if (flags.detachedChild && process.connected) process.disconnect();
        if (err instanceof UsageError) throw err;
        const problem = startupProblem(err, config);
        if (problem === undefined) throw err;
        throw new UsageError(
          problem.replace(/^Invalid configuration: /, 'invalid setting: '),
          config ? 1 : exitCodes.usage,
        );
      }
    },
  );
}
