import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { simPaces, type Config } from '../../config.js';
import type { RunningServer } from '../../main.js';
import { isPidAlive } from '../../process-alive.js';
import { detach, type Started } from '../detach.js';
import { exitCodes, UsageError } from '../exit-codes.js';
import { profileLine, shown, updateLocalProfile } from '../local-profile.js';
import {
  LOG_FILE,
  removeState,
  runningState,
  statePath,
  storeLocation,
  writeState,
  type ServerState,
} from '../server-state.js';
import { startupProblem } from '../startup-errors.js';
import { addSettingFlags, configFrom, type Flags } from './settings-flags.js';

/** The pace's name when it has one (ACACIA_SIM_SPEED=fast|realistic), else its factor. */
const paceOf = (speed: number) => Object.entries(simPaces).find(([, factor]) => factor === speed)?.[0] ?? `x${speed}`;

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
    return isPidAlive(parent);
  }
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
