import { createRequire } from 'node:module';
import { Command, CommanderError, Option } from 'commander';
import { formats, resolveTarget, type GlobalOptions } from './context.js';
import { describeFailure, exitCodes } from './exit-codes.js';
import { adminCommands } from './commands/admin.js';
import { addonCommands } from './commands/addons.js';
import { allowListCommands } from './commands/allow-list.js';
import { apiKeyCommands } from './commands/apikeys.js';
import { billingCommands } from './commands/billing.js';
import { orgCommands, userCommands } from './commands/users.js';
import { backupCommands } from './commands/backups.js';
import { clockCommands } from './commands/clock.js';
import { completeWords, completionCommand } from './commands/completion.js';
import { configCommands } from './commands/config.js';
import { databaseCommands } from './commands/databases.js';
import { dbUserCommands } from './commands/db-users.js';
import { operationCommands } from './commands/operations.js';
import { eventCommands } from './commands/events.js';
import { instanceCommands } from './commands/instance.js';
import { metricsCommands } from './commands/metrics.js';
import { webhookCommands } from './commands/webhooks.js';
import { chaosCommands } from './commands/chaos.js';
import { providerCommands } from './commands/providers.js';
import { scheduleCommands } from './commands/schedules.js';
import { serveCommand } from './commands/serve.js';
import { stateCommands } from './commands/state.js';
import { statusCommand } from './commands/status.js';
import { stopCommand } from './commands/stop.js';
import { workgroupCommands } from './commands/workgroups.js';
import { waitCommand } from './commands/wait.js';
import { workspaceCommands } from './commands/workspaces.js';

const version: string = createRequire(import.meta.url)('../../package.json').version;

export function buildCli(): Command {
  const program = new Command('acacia')
    .description('Acacia: the control plane of a managed graph-database cloud, and its API client')
    .version(version)
    // Errors come back as exceptions, so each maps to its exit status in one place.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addOption(
      new Option('--url <url>', 'API address (env: ACACIA_URL; default: the profile, or http://127.0.0.1:8080)'),
    )
    .addOption(new Option('--api-key <key>', 'API key (env: ACACIA_API_KEY; default: the profile)'))
    .addOption(new Option('--profile <name>', 'profile of the config file to use (env: ACACIA_PROFILE)'))
    .addOption(
      new Option('-o, --output <format>', 'table, json or yaml (default: table on a terminal, else json)').choices(
        formats,
      ),
    )
    .addOption(new Option('-q, --quiet', 'print only ids (or the one value a command makes)'));

  serveCommand(program);
  statusCommand(program);
  stopCommand(program);
  configCommands(program);
  providerCommands(program);
  workgroupCommands(program);
  workspaceCommands(program);
  databaseCommands(program);
  dbUserCommands(program);
  allowListCommands(program);
  backupCommands(program);
  scheduleCommands(program);
  addonCommands(program);
  operationCommands(program);
  eventCommands(program);
  waitCommand(program);
  webhookCommands(program);
  apiKeyCommands(program);
  metricsCommands(program);
  billingCommands(program);
  orgCommands(program);
  userCommands(program);
  chaosCommands(program);
  stateCommands(program);
  adminCommands(program);
  clockCommands(program);
  instanceCommands(program);
  completionCommand(program);
  return program;
}

/** Runs the command line; every failure is one message on stderr and its exit status (docs/cli.md). */
export async function runCli(argv: string[]): Promise<void> {
  const program = buildCli();
  // What the completion scripts call back: the words so far in, one candidate a line out.
  // Not a command of the tree, so the words (flags among them) reach it as typed.
  if (argv[2] === '__complete') {
    const candidates = await completeWords(program, argv.slice(3));
    if (candidates.length > 0) process.stdout.write(`${candidates.join('\n')}\n`);
    return;
  }
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version end here too; commander printed what there was to print.
      process.exitCode = err.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
      return;
    }
    let target: { url: string; hasKey: boolean } | undefined;
    try {
      const t = resolveTarget(program.opts<GlobalOptions>());
      target = { url: t.url, hasKey: t.apiKey !== undefined };
    } catch {
      target = undefined;
    }
    const failure = describeFailure(err, target);
    for (const line of failure.lines) process.stderr.write(`${line}\n`);
    // Only a failure nothing above explains (a bug) shows where it happened.
    if (failure.unexpected) process.stderr.write(`${(err as Error)?.stack ?? ''}\n`);
    process.exitCode = failure.code;
  }
}
