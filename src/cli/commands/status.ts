import type { Command } from 'commander';
import { Agent } from 'undici';
import { AcaciaClient, resultOf } from '../../client/index.js';
import { commandOf } from '../api-command.js';
import { outputOf, resolveTarget, type GlobalOptions } from '../context.js';
import { describeFailure, exitCodes } from '../exit-codes.js';
import { render } from '../output.js';
import { dataDirOf, readState, statePath, type ServerState } from '../server-state.js';
import { isPidAlive } from '../../process-alive.js';

/** A status that never waits long on a server that does not answer. */
const PATIENCE_MS = 5000;

/**
 * The server to ask: the one --url, ACACIA_URL or a profile named (--profile, ACACIA_PROFILE)
 * points at; else the one the data directory's state file records; else the current profile's.
 */
function targetOf(opts: GlobalOptions, state: ServerState | undefined): string {
  const named = opts.url ?? (process.env.ACACIA_URL || undefined) ?? opts.profile ?? process.env.ACACIA_PROFILE;
  if (named === undefined && state?.url) return state.url;
  return resolveTarget(opts).url;
}

export function statusCommand(program: Command): void {
  program
    .command('status')
    .description(
      'What runs where: addresses, driver, store, clock, fault injection, version, pid, uptime ' +
        `(exit ${exitCodes.down} when no server answers)`,
    )
    .option('--data-dir <dir>', "the server's data directory, where serve records it (env: ACACIA_DATA_DIR)")
    .action(async (opts: { dataDir?: string }, cmd: Command) => {
      const output = outputOf(cmd);
      const dataDir = dataDirOf(opts.dataDir);
      const state = readState(dataDir);
      const url = targetOf(cmd.optsWithGlobals<GlobalOptions>(), state);
      const ours = state !== undefined && state.url === url;
      const dispatcher = new Agent({ connect: { timeout: PATIENCE_MS }, headersTimeout: PATIENCE_MS });
      try {
        const client = new AcaciaClient({ baseUrl: url, dispatcher });
        const status = resultOf(await client.serverStatus());
        render(output, {
          ...status,
          // Where the store is is known here only, from the record of the server this host started.
          ...(ours ? { store_location: state.store, state_file: statePath(dataDir) } : {}),
          ...(ours && state.log_file ? { log_file: state.log_file } : {}),
        });
      } catch (err) {
        const failure = describeFailure(err, { url, hasKey: false });
        if (failure.code !== exitCodes.unreachable && !isTimeout(err)) throw err;
        const recorded = ours && isPidAlive(state.pid);
        const reason = recorded
          ? `process ${state.pid} runs but nothing answers at ${url}`
          : `nothing answers at ${url}`;
        if (output.format !== 'table' || output.quiet)
          output.out(JSON.stringify({ status: 'down', url, reason, ...(recorded ? { pid: state.pid } : {}) }, null, 2));
        output.note(`down: ${reason}`);
        process.exitCode = exitCodes.down;
      } finally {
        await dispatcher.close();
      }
    });
  commandOf.set('serverStatus', 'status');
}

function isTimeout(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as never, i++)
    if (typeof e.code === 'string' && /TIMEOUT/.test(e.code)) return true;
  return false;
}
