import { Command, Option } from 'commander';
import { ConfigError, loadConfig, settings, type Config } from '../config.js';
import { newKeyFrom } from '../domain/api-keys.js';
import { roles, type Role } from '../domain/principal.js';
import { createServices, type Services } from '../domain/services.js';
import { AppError } from '../domain/errors.js';
import { systemClock } from '../domain/clock.js';
import { startServer, version } from '../main.js';
import { bodyProblems } from '../http/validation.js';
import { CreateApiKeyBody } from '../schemas/api-key.js';
import { tiers, type Tier } from '../schemas/catalog.js';
import { openStore } from '../store/store.js';

type Flags = Record<string, string | undefined>;

/** Flags override environment variables; both go through the same validation. */
function configFrom(flags: Flags): Readonly<Config> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const s of settings) {
    const value = flags[camel(s.flag)];
    if (value !== undefined) env[s.env] = value;
  }
  return loadConfig(env);
}

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

function addSettingFlags(cmd: Command, only?: readonly string[]): Command {
  for (const s of settings) {
    if (only && !only.includes(s.env)) continue;
    const def = s.def === undefined ? '' : `, default: ${s.def}`;
    cmd.addOption(new Option(`--${s.flag} <value>`, `${s.help} (env: ${s.env}${def})`));
  }
  return cmd;
}

async function withServices<T>(flags: Flags, fn: (services: Services) => Promise<T>): Promise<T> {
  const config = configFrom(flags);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await fn(createServices(store, systemClock, config.catalog, { baseDomain: config.baseDomain }));
  } finally {
    await store.close();
  }
}

/** The `keys create` flag of each field of the API's CreateApiKeyBody. */
const keyFlags: Record<string, string> = {
  key_name: '--name',
  description: '--description',
  role: '--role',
  workgroup_ids: '--workgroup-ids',
  workspace_ids: '--workspace-ids',
  life_time_in_seconds: '--expires-in',
};

const list = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);
const storeFlags = ['DATABASE_URL', 'ACACIA_DATA_DIR'] as const;

export function buildCli(): Command {
  const program = new Command('acacia').description('Acacia control plane').version(version);

  addSettingFlags(
    program
      .command('serve')
      .description('Start the API server (and its engine) on the configured store')
      .addHelpText('after', '\nEvery flag may instead be given as the environment variable named beside it; a flag wins.'),
  ).action(async (flags: Flags) => {
    const server = await startServer(configFrom(flags));
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
  });

  const keys = program.command('keys').description('Manage API keys directly on the store (works beside a running server)');

  addSettingFlags(
    keys
      .command('create')
      .description('Create an API key; creates the organisation when it does not exist. Prints the key once, on stdout.')
      .requiredOption('--org <name>', 'organisation name')
      .addOption(new Option('--tier <tier>', 'organisation tier (new organisations default to free; given for an existing one, changes its tier)').choices(tiers))
      .addOption(new Option('--role <role>', 'role of the key').choices(roles).default('org-admin'))
      .option('--name <key-name>', 'key name (default: cli-<timestamp>)')
      .option('--description <text>', 'what the key is for')
      .option('--workgroup-ids <ids>', 'comma-separated workgroup ids (workgroup-admin)', list)
      .option('--workspace-ids <ids>', 'comma-separated workspace ids (workspace-admin)', list)
      .option('--expires-in <seconds>', 'lifetime in seconds', (v) => Number(v))
      .option('--json', 'print the whole key record as JSON'),
    storeFlags,
  ).action(async (flags: Flags & { role: Role; tier?: Tier; workgroupIds?: string[]; workspaceIds?: string[]; expiresIn?: number; json?: boolean }) => {
    const body: CreateApiKeyBody = {
      key_name: flags.name ?? `cli-${Date.now()}`,
      role: flags.role,
      ...(flags.description !== undefined ? { description: flags.description } : {}),
      ...(flags.workgroupIds ? { workgroup_ids: flags.workgroupIds } : {}),
      ...(flags.workspaceIds ? { workspace_ids: flags.workspaceIds } : {}),
      ...(flags.expiresIn !== undefined ? { life_time_in_seconds: flags.expiresIn } : {}),
    };
    // The same rules as POST /apikeys, named by the flag that carries each field.
    const problems = bodyProblems(CreateApiKeyBody, body);
    if (problems.length > 0) throw new AppError('invalid', problems.map((d) => ({ ...d, field: keyFlags[d.field] ?? d.field })));
    const record = await withServices(flags, async (services) => {
      const org = await services.organisations.ensure(flags.org!, flags.tier);
      return services.apiKeys.issue(newKeyFrom(body, org.id, 'cli'));
    });
    process.stdout.write(flags.json ? `${JSON.stringify(record, null, 2)}\n` : `${record.plaintext_key}\n`);
  });

  addSettingFlags(
    keys.command('list').description('List the active keys of an organisation').requiredOption('--org <name>', 'organisation name'),
    storeFlags,
  ).action(async (flags: Flags) => {
    const records = await withServices(flags, async (services) => {
      const org = await services.organisations.find(flags.org!);
      if (!org) throw new AppError('not-found', { field: 'org', reason: `no organisation "${flags.org}"` });
      return services.apiKeys.listForOrg(org.id);
    });
    process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
  });

  addSettingFlags(
    keys
      .command('revoke')
      .description('Revoke a key by name')
      .requiredOption('--org <name>', 'organisation name')
      .requiredOption('--name <key-name>', 'key name'),
    storeFlags,
  ).action(async (flags: Flags) => {
    const record = await withServices(flags, async (services) => {
      const org = await services.organisations.find(flags.org!);
      if (!org) throw new AppError('not-found', { field: 'org', reason: `no organisation "${flags.org}"` });
      return services.apiKeys.revokeForOrg(org.id, flags.name!);
    });
    process.stdout.write(`revoked ${record.key_name} (${record.redacted_key})\n`);
  });

  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    if (err instanceof ConfigError) console.error(err.message);
    else if (err instanceof AppError) console.error(`error: ${err.message}`);
    else console.error(err);
    process.exitCode = err instanceof ConfigError ? 2 : 1;
  }
}
