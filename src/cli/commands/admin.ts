import { Option, type Command } from 'commander';
import { roles, type Role } from '../../schemas/api-key.js';
import { tiers, type Tier } from '../../schemas/catalog.js';
import type { Services } from '../../domain/services.js';
import { exitCodes, UsageError } from '../exit-codes.js';
import { startupProblem } from '../startup-errors.js';
import { addSettingFlags, configFrom, type Flags } from './settings-flags.js';

const storeFlags = ['DATABASE_URL', 'ACACIA_DATA_DIR'] as const;

/** The `keys create` flag of each field of the API's CreateApiKeyBody. */
const keyFlags: Record<string, string> = {
  key_name: '--name',
  description: '--description',
  role: '--role',
  workgroup_ids: '--workgroup-ids',
  workspace_ids: '--workspace-ids',
  life_time_in_seconds: '--expires-in',
};

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Runs fn on the store a server made, refusing to make one: an empty store here would only
 * hide that the command looked in the wrong place (another directory, another database).
 */
async function withServices<T>(flags: Flags, fn: (services: Services) => Promise<T>): Promise<T> {
  const config = configFrom(flags);
  try {
    const { findStore } = await import('../../store/store-exists.js');
    const found = await findStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    if (!found.exists)
      throw new UsageError(
        `no Acacia store at ${found.where}: start the server there once (acacia serve) to make it, ` +
          'or point --data-dir (ACACIA_DATA_DIR) or --database-url (DATABASE_URL) at the one it uses',
        exitCodes['Not-Found'],
      );
    const [{ openStore }, { createServices }, { systemClock }] = await Promise.all([
      import('../../store/store.js'),
      import('../../domain/services.js'),
      import('../../domain/clock.js'),
    ]);
    const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      return await fn(createServices(store, systemClock, config.catalog, { baseDomain: config.baseDomain }));
    } finally {
      await store.close();
    }
  } catch (err) {
    const problem = err instanceof UsageError ? undefined : startupProblem(err, config);
    if (problem) throw new UsageError(problem, 1);
    throw err;
  }
}

/** An AppError of the domain, as the API would answer it. */
async function domainError(err: unknown): Promise<never> {
  const { AppError } = await import('../../domain/errors.js');
  if (err instanceof AppError) {
    const { errorCodes } = await import('../../listener/error-codes.js');
    const type = errorCodes[err.code].type as keyof typeof exitCodes;
    throw new UsageError(`${type}: ${err.message}`, exitCodes[type] ?? exitCodes.failure);
  }
  throw err;
}

function keyCommands(keys: Command): void {
  addSettingFlags(
    keys
      .command('create')
      .description(
        'Create an API key; creates the organisation when it does not exist. Prints the key once, on stdout.',
      )
      .requiredOption('--org <name>', 'organisation name')
      .addOption(
        new Option(
          '--tier <tier>',
          'organisation tier (new organisations default to free; given for an existing one, changes its tier)',
        ).choices(tiers),
      )
      .addOption(new Option('--role <role>', 'role of the key').choices(roles).default('org-admin'))
      .option('--name <key-name>', 'key name (default: cli-<timestamp>)')
      .option('--description <text>', 'what the key is for')
      .option('--workgroup-ids <ids>', 'comma-separated workgroup ids (workgroup-admin)', list)
      .option('--workspace-ids <ids>', 'comma-separated workspace ids (workspace-admin)', list)
      .option('--expires-in <seconds>', 'lifetime in seconds', (v) => Number(v))
      .option('--json', 'print the whole key record as JSON'),
    storeFlags,
  ).action(
    async (
      flags: Flags & {
        role: Role;
        tier?: Tier;
        workgroupIds?: string[];
        workspaceIds?: string[];
        expiresIn?: number;
        json?: boolean;
      },
    ) => {
      const [{ CreateApiKeyBody }, { bodyProblems }, { newKeyFrom }] = await Promise.all([
        import('../../schemas/api-key.js'),
        import('../../http/validation.js'),
        import('../../domain/api-keys.js'),
      ]);
      const body = {
        key_name: flags.name ?? `cli-${Date.now()}`,
        role: flags.role,
        ...(flags.description !== undefined ? { description: flags.description } : {}),
        ...(flags.workgroupIds ? { workgroup_ids: flags.workgroupIds } : {}),
        ...(flags.workspaceIds ? { workspace_ids: flags.workspaceIds } : {}),
        ...(flags.expiresIn !== undefined ? { life_time_in_seconds: flags.expiresIn } : {}),
      };
      // The same rules as POST /apikeys, named by the flag that carries each field.
      const problems = bodyProblems(CreateApiKeyBody, body);
      if (problems.length > 0)
        throw new UsageError(
          `Bad-Request: ${problems.map((d) => `${keyFlags[d.field] ?? d.field}: ${d.reason}`).join('; ')}`,
          exitCodes['Bad-Request'],
        );
      const record = await withServices(flags, async (services) => {
        const org = await services.organisations.ensure(flags.org!, flags.tier);
        return services.apiKeys.issue(newKeyFrom(body, org.id, 'cli', flags.role));
      }).catch(domainError);
      process.stdout.write(flags.json ? `${JSON.stringify(record, null, 2)}\n` : `${record.plaintext_key}\n`);
    },
  );

  const orgOf = async (services: Services, name: string) => {
    const org = await services.organisations.find(name);
    if (!org) throw new UsageError(`no organisation "${name}" in this store`, exitCodes['Not-Found']);
    return org;
  };

  addSettingFlags(
    keys
      .command('list')
      .description('List the active keys of an organisation')
      .requiredOption('--org <name>', 'organisation name'),
    storeFlags,
  ).action(async (flags: Flags) => {
    const records = await withServices(flags, async (services) =>
      services.apiKeys.listForOrg((await orgOf(services, flags.org!)).id),
    ).catch(domainError);
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
    const record = await withServices(flags, async (services) =>
      services.apiKeys.revokeForOrg((await orgOf(services, flags.org!)).id, flags.name!),
    ).catch(domainError);
    process.stdout.write(`revoked ${record.key_name} (${record.redacted_key})\n`);
  });
}

function creditCommands(credit: Command): void {
  addSettingFlags(
    credit
      .command('add')
      .description(
        "Add credit to an organisation's balance; a balance above zero ends its delinquency (docs/billing.md)",
      )
      .requiredOption('--org <name>', 'organisation name')
      .requiredOption('--amount <units>', 'credit to add, in the catalog currency (e.g. 250 or 12.5)', (v) => Number(v))
      .option('--note <text>', 'why, kept in the ledger'),
    storeFlags,
  ).action(async (flags: Flags & { amount: number; note?: string }) => {
    const result = await withServices(flags, (services) =>
      services.billing.grant(flags.org!, flags.amount, flags.note),
    ).catch(domainError);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  });
}

function userCommands(users: Command): void {
  addSettingFlags(
    users
      .command('add')
      .description(
        'Add a user to an organisation without an invitation, with its roles; prints its first API key once, on stdout',
      )
      .requiredOption('--org <name>', 'organisation name (created when it does not exist)')
      .requiredOption('--email <email>', "the user's email")
      .option('--first-name <name>', 'first name')
      .option('--last-name <name>', 'last name')
      .option('--roles <roles>', 'comma-separated roles: org-admin, workspace-admin:<workspace id>, …', list)
      .option('--platform-admin', "make the user a platform administrator (sees every organisation's providers)")
      .option('--json', 'print the user and the key record as JSON'),
    storeFlags,
  ).action(
    async (
      flags: Flags & {
        email: string;
        firstName?: string;
        lastName?: string;
        roles?: string[];
        platformAdmin?: boolean;
        json?: boolean;
      },
    ) => {
      const made = await withServices(flags, async (services) => {
        const org = await services.organisations.ensure(flags.org!);
        return services.users.create(org.id, {
          email: flags.email,
          firstName: flags.firstName,
          lastName: flags.lastName,
          roles: flags.roles,
          platformAdmin: flags.platformAdmin === true,
        });
      }).catch(domainError);
      process.stdout.write(flags.json ? `${JSON.stringify(made, null, 2)}\n` : `${made.key.plaintext_key}\n`);
    },
  );

  addSettingFlags(
    users
      .command('platform-admin')
      .description("Grant (or with --off take back) a user's platform administrator flag")
      .requiredOption('--org <name>', "the user's organisation")
      .requiredOption('--email <email>', "the user's email")
      .option('--off', 'take the flag back'),
    storeFlags,
  ).action(async (flags: Flags & { email: string; off?: boolean }) => {
    const user = await withServices(flags, async (services) => {
      const org = await services.organisations.find(flags.org!);
      if (!org) throw new UsageError(`no organisation "${flags.org}" in this store`, exitCodes['Not-Found']);
      return services.users.setPlatformAdmin(org.id, flags.email, flags.off !== true);
    }).catch(domainError);
    process.stdout.write(`${user.email}: platform administrator ${user.platform_admin ? 'granted' : 'taken back'}\n`);
  });
}

export function adminCommands(program: Command): void {
  const admin = program
    .command('admin')
    .description('Work on the store directly, beside a running server (needs no API key)');
  keyCommands(
    admin
      .command('keys')
      .description('API keys of any organisation: the first key of a new organisation, a lost admin key'),
  );
  creditCommands(admin.command('credit').description("Organisations' billing credit"));
  userCommands(
    admin
      .command('users')
      .description('Users of any organisation: one added without an invitation, the platform administrator flag'),
  );
  // `acacia keys …` before `admin` existed: kept, hidden, for one release.
  const old = program.command('keys', { hidden: true }).description('Renamed: acacia admin keys');
  old.hook('preAction', () => {
    process.stderr.write('acacia keys is now acacia admin keys; the old name goes in the next release\n');
  });
  keyCommands(old);
}
