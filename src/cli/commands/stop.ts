import type { Command } from 'commander';
import { outputOf } from '../context.js';
import { exitCodes, UsageError } from '../exit-codes.js';
import { accepting, dataDirOf, readState, removeState, statePath, until } from '../server-state.js';
import { isPidAlive } from '../../process-alive.js';

export function stopCommand(program: Command): void {
  program
    .command('stop')
    .description(
      'Stop the server of the data directory gracefully (SIGTERM), once it is gone and its ports are free ' +
        `(exit ${exitCodes.down} when none runs)`,
    )
    .option('--data-dir <dir>', "the server's data directory, where serve records it (env: ACACIA_DATA_DIR)")
    .option('--timeout <seconds>', 'how long to wait for it to finish its requests and exit', '30')
    .action(async (opts: { dataDir?: string; timeout: string }, cmd: Command) => {
      const timeoutMs = Number(opts.timeout) * 1000;
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
        throw new UsageError(`--timeout must be a number of seconds (got "${opts.timeout}")`);
      const dataDir = dataDirOf(opts.dataDir);
      const state = readState(dataDir);
      if (state === undefined)
        throw new UsageError(`no server runs from ${dataDir} (no ${statePath(dataDir)})`, exitCodes.down);
      if (!isPidAlive(state.pid)) {
        removeState(dataDir, state.pid);
        throw new UsageError(
          `no server runs from ${dataDir}: process ${state.pid} is gone (its record is removed)`,
          exitCodes.down,
        );
      }
      process.kill(state.pid, 'SIGTERM');
      if (!(await until(() => !isPidAlive(state.pid), timeoutMs)))
        throw new UsageError(
          `process ${state.pid} did not exit within ${opts.timeout} s; it may still be finishing requests ` +
            `(\`kill -KILL ${state.pid}\` ends it at once)`,
          exitCodes.failure,
        );
      // The process is gone; its listening sockets go with it, checked rather than assumed.
      const addresses = [state.url, state.gateway_url].filter(Boolean);
      const free = await until(async () => !(await Promise.all(addresses.map(accepting))).some(Boolean), 10_000);
      removeState(dataDir, state.pid);
      if (!free) throw new UsageError(`process ${state.pid} exited, but something still answers at ${addresses}`);
      const output = outputOf(cmd);
      const result = { stopped: true, pid: state.pid, url: state.url, gateway_url: state.gateway_url };
      if (output.format !== 'table') output.out(JSON.stringify(result, null, 2));
      else output.out(`stopped Acacia (pid ${state.pid}); ${addresses.join(' and ') || 'its ports'} free`);
    });
}
