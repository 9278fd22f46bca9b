import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../../config.js';
import { exitCodes, UsageError } from '../exit-codes.js';
import { startupProblem } from '../startup-errors.js';
import { addSettingFlags, configFrom, type Flags } from './settings-flags.js';

/** A path as the operator would type it from here: relative when under the current directory. */
const shown = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
};

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

export function serveCommand(program: Command): void {
  addSettingFlags(
    program
      .command('serve')
      .description('Start the API server (and its engine and gateway) on the configured store')
      .addHelpText(
        'after',
        '\nEvery flag may instead be given as the environment variable named beside it; a flag wins.',
      ),
  ).action(async (flags: Flags) => {
    let config: Readonly<Config> | undefined;
    try {
      config = configFrom(flags);
      const { startServer } = await import('../../main.js');
      const server = await startServer(config);
      await (await import('../seed.js')).seedServer(config, server);
      // Outside the JSON log, so it shows whatever the log level.
      process.stderr.write(
        `Acacia listening: API ${server.url}, gateway ${server.gatewayUrl}\n` +
          `Use it from the CLI: ${profileLine(config, server.url)}\n`,
      );
      const stop = (signal: string) => {
        server.logger.info({ signal }, 'shutting down: finishing in-flight requests');
        server.close().then(
          () => process.exit(0),
          (err) => {
            console.error(err);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    } catch (err) {
      const problem = startupProblem(err, config);
      if (problem === undefined) throw err;
      throw new UsageError(
        problem.replace(/^Invalid configuration: /, 'invalid setting: '),
        config ? 1 : exitCodes.usage,
      );
    }
  });
}
