import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { ConfigFile, type Catalog } from './schemas/catalog.js';
import { defaultCatalog, mergeCatalog } from './domain/catalog.js';
import { normaliseCidr } from './addresses/cidr.js';
import { driverNames } from './engine/drivers/index.js';
import { logLevels } from './logger.js';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;
type Parse<T> = (name: string, raw: string) => T;

const int =
  (min: number, max: number): Parse<number> =>
  (name, raw) => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max)
      throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
    return n;
  };
const oneOf =
  <T extends string>(values: readonly T[]): Parse<T> =>
  (name, raw) => {
    if (!values.includes(raw as T)) throw new ConfigError(name, `must be one of ${values.join(', ')} (got "${raw}")`);
    return raw as T;
  };
const seconds =
  (min: number, max: number): Parse<number> =>
  (name, raw) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max)
      throw new ConfigError(name, `must be a number of seconds from ${min} to ${max} (got "${raw}")`);
    return n;
  };
/** An http(s) URL, kept as given. */
const httpUrl: Parse<string> = (name, raw) => {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol)) throw new ConfigError(name, 'must be an http or https URL');
  return raw;
};

const text: Parse<string> = (name, raw) => {
  if (raw.trim() === '') throw new ConfigError(name, 'must not be empty');
  return raw;
};
/** `on` or `off`, as true or false. */
const onOff: Parse<boolean> = (name, raw) => oneOf(['on', 'off'])(name, raw) === 'on';
/** A number given in one unit (seconds, hours, MiB) as a whole number of another (ms, bytes). */
const inUnits =
  (parse: Parse<number>, factor: number): Parse<number> =>
  (name, raw) =>
    Math.round(parse(name, raw) * factor);
const SECOND_MS = 1000;
/** The simulated provisioner's named paces: factors of its realistic durations. */
export const simPaces = { fast: 0.02, realistic: 1 } as const;
const HOUR_MS = 3_600_000;
const MIB = 1024 * 1024;

/**
 * One setting: its environment variable, `acacia serve` flag, default and meaning, and the
 * property of Config it fills. The table below is the one place a setting is declared: Config
 * is its type, loadConfig reads it, the CLI builds `acacia serve`'s flags and help from it,
 * and `npm run settings` writes the table of docs/operations.md from it.
 */
interface SettingOf<K extends string, T> {
  /** The Config property. */
  key: K;
  env: string;
  flag: string;
  /** The default, as it would be written in the environment; undefined when there is none. */
  def: string | undefined;
  help: string;
  /** Where the documentation says more (a link from docs/operations.md, relative to docs/). */
  see?: string;
  /** The value of the text given; throws a ConfigError naming the variable. */
  parse: Parse<T>;
  /** The value when the setting is given neither in the environment nor by a default (else undefined). */
  unset?: T;
}

export const settings = [
  {
    key: 'host',
    env: 'ACACIA_HOST',
    flag: 'host',
    def: '127.0.0.1',
    help: 'address the API and gateway listen on',
    parse: text,
  },
  {
    key: 'port',
    env: 'ACACIA_PORT',
    flag: 'port',
    def: '8080',
    help: 'API port (0 = pick a free port and log it)',
    parse: int(0, 65535),
  },
  {
    key: 'gatewayPort',
    env: 'ACACIA_GATEWAY_PORT',
    flag: 'gateway-port',
    def: '14240',
    help: 'data-plane gateway port (0 = pick a free port and log it)',
    parse: int(0, 65535),
  },
  {
    key: 'dataDir',
    env: 'ACACIA_DATA_DIR',
    flag: 'data-dir',
    def: './data',
    help:
      'directory of the SQLite file and the bootstrap key; with the local driver, ' +
      'also of the graphs and the data-plane key',
    parse: (name, raw) => path.resolve(text(name, raw)),
  },
  {
    key: 'databaseUrl',
    env: 'DATABASE_URL',
    flag: 'database-url',
    def: undefined,
    help: 'postgres://… selects PostgreSQL instead of SQLite',
    parse: (name, raw) => {
      if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError(name, 'must be a postgres:// or postgresql:// URL');
      return raw;
    },
  },
  {
    key: 'bootstrapApiKey',
    env: 'ACACIA_BOOTSTRAP_API_KEY',
    flag: 'bootstrap-api-key',
    def: undefined,
    help: 'the first org-admin key on an empty store',
    parse: (name, raw) => {
      if (raw.length < 32 || raw.length > 256 || /\s/.test(raw))
        throw new ConfigError(name, 'must be 32 to 256 characters without white space');
      return raw;
    },
  },
  {
    key: 'seed',
    env: 'ACACIA_SEED',
    flag: 'seed',
    def: undefined,
    help:
      'a state file, or a folder of them (.yaml and .yml files, in name order), applied once the server is ready ' +
      'and before it reports so; a failing one stops the server',
    see: 'state-files.md#seeding-a-server',
    parse: (name, raw) => path.resolve(text(name, raw)),
  },
  {
    key: 'clock',
    env: 'ACACIA_CLOCK',
    flag: 'clock',
    def: 'system',
    help: 'system, or manual to enable the test clock and POST /_test/clock',
    parse: oneOf(['system', 'manual'] as const),
  },
  {
    key: 'idSeed',
    env: 'ACACIA_ID_SEED',
    flag: 'id-seed',
    def: undefined,
    help:
      'makes new ids from this seed (with the manual clock, the same requests to a fresh server ' +
      'get the same ids); unset, they are random',
    see: 'testing.md',
    parse: (name, raw) => {
      if (raw.length > 256) throw new ConfigError(name, 'must be at most 256 characters');
      return text(name, raw);
    },
  },
  {
    key: 'snapshot',
    env: 'ACACIA_SNAPSHOT',
    flag: 'snapshot',
    def: undefined,
    help: "a snapshot file (acacia snapshot save) to load before serving, replacing the store's state",
    see: 'snapshots.md',
    parse: (name, raw) => path.resolve(text(name, raw)),
  },
  {
    key: 'snapshotMaxBytes',
    env: 'ACACIA_SNAPSHOT_MAX_SIZE',
    flag: 'snapshot-max-size',
    def: '1024',
    help: 'MiB: the largest snapshot file a load takes (what it inflates to: at most 100 times that)',
    see: 'snapshots.md',
    parse: inUnits(int(1, 1_048_576), MIB),
  },
  {
    key: 'driver',
    env: 'ACACIA_DRIVER',
    flag: 'driver',
    def: 'simulated',
    help: `provisioner driver: ${driverNames.join(', ')}`,
    see: 'drivers.md',
    parse: oneOf(driverNames),
  },
  {
    key: 'retryBackoffMs',
    env: 'ACACIA_RETRY_BACKOFF',
    flag: 'retry-backoff',
    def: '2',
    help:
      'seconds before the first retry of a failed engine step; each retry waits twice as long, ' +
      'up to 30 times this (0 = at once)',
    parse: inUnits(seconds(0, 3600), SECOND_MS),
  },
  {
    key: 'simSpeed',
    env: 'ACACIA_SIM_SPEED',
    flag: 'sim-speed',
    def: 'fast',
    help:
      'pace of the simulated provisioner: fast (a workspace in about 2 s, a backup in under 1 s), ' +
      'realistic (about 90 s and 30 s, as the managed cloud), or the factor realistic durations are ' +
      'multiplied by (0 = next tick, 1 = realistic)',
    see: 'drivers.md#pace',
    parse: (name, raw) => {
      if (Object.hasOwn(simPaces, raw)) return simPaces[raw as keyof typeof simPaces];
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1000)
        throw new ConfigError(name, `must be fast, realistic or a number from 0 to 1000 (got "${raw}")`);
      return n;
    },
  },
  {
    key: 'baseDomain',
    env: 'ACACIA_BASE_DOMAIN',
    flag: 'base-domain',
    def: 'localhost',
    help: 'domain of workspace proxy_host names',
    parse: (name, raw) => {
      if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(raw))
        throw new ConfigError(name, `must be a DNS domain (got "${raw}")`);
      return raw.toLowerCase();
    },
  },
  {
    key: 'gatewayExtraPorts',
    env: 'ACACIA_GATEWAY_EXTRA_PORTS',
    flag: 'gateway-extra-ports',
    def: undefined,
    help:
      'comma-separated ports the gateway also answers on, serving the same as its port (e.g. 9000, where ' +
      'TigerGraph clients send REST++; developer machines)',
    unset: [] as number[],
    parse: (name, raw) =>
      raw.split(',').map((p) => {
        const n = Number(p.trim());
        if (!Number.isInteger(n) || n < 1 || n > 65535)
          throw new ConfigError(name, `must be comma-separated ports from 1 to 65535 (got "${raw}")`);
        return n;
      }),
  },
  {
    key: 'gatewayDefaultWorkspace',
    env: 'ACACIA_GATEWAY_DEFAULT_WORKSPACE',
    flag: 'gateway-default-workspace',
    def: undefined,
    help:
      'a workspace id: gateway requests that name no workspace (neither proxy_host nor /w/<id>/) go to it, ' +
      'so a client configured for one TigerGraph server on 127.0.0.1 reaches it (developer machines)',
    parse: (name, raw) => {
      if (!/^[A-Za-z0-9-]{1,64}$/.test(raw)) throw new ConfigError(name, `must be a workspace id (got "${raw}")`);
      return raw;
    },
  },
  {
    key: 'trustProxy',
    env: 'ACACIA_TRUST_PROXY',
    flag: 'trust-proxy',
    def: undefined,
    help:
      'comma-separated addresses or CIDRs (or loopback, linklocal, uniquelocal) whose X-Forwarded-For ' +
      'is trusted (API and gateway)',
    parse: (name, raw) =>
      raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((entry) => {
          // The names are the ranges proxy-addr (Fastify's trustProxy) knows by name.
          if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return entry;
          const parsed = normaliseCidr(entry);
          if (!parsed.ok)
            throw new ConfigError(name, `has an entry that is not an address or CIDR range: ${parsed.reason}`);
          return parsed.cidr;
        }),
  },
  {
    key: 'configFile',
    env: 'ACACIA_CONFIG',
    flag: 'config',
    def: undefined,
    help: 'JSON file overriding catalogs, tiers and limits',
    parse: text,
  },
  {
    key: 'logLevel',
    env: 'ACACIA_LOG_LEVEL',
    flag: 'log-level',
    def: 'info',
    help: `log level (${logLevels.join(', ')})`,
    parse: oneOf(logLevels),
  },
  {
    key: 'logFormat',
    env: 'ACACIA_LOG_FORMAT',
    flag: 'log-format',
    def: 'auto',
    help:
      'json (pino JSON lines on stdout), text (a readable line each), or auto: text when stdout is ' +
      'a terminal, else json',
    parse: oneOf(['auto', 'json', 'text'] as const),
  },
  {
    key: 'rateLimit',
    env: 'ACACIA_RATE_LIMIT',
    flag: 'rate-limit',
    def: '6000',
    help: 'requests per minute per API key (0 = off)',
    parse: int(0, 10_000_000),
  },
  {
    key: 'headersTimeoutMs',
    env: 'ACACIA_HEADERS_TIMEOUT',
    flag: 'headers-timeout',
    def: '10',
    help: 'seconds a client may take to send the headers of a request (API and gateway)',
    parse: inUnits(seconds(0.1, 3600), SECOND_MS),
  },
  {
    key: 'requestTimeoutMs',
    env: 'ACACIA_REQUEST_TIMEOUT',
    flag: 'request-timeout',
    def: '30',
    help: 'seconds a client may take to send a whole request (API and gateway)',
    parse: inUnits(seconds(0.1, 3600), SECOND_MS),
  },
  {
    key: 'keepAliveTimeoutMs',
    env: 'ACACIA_KEEP_ALIVE_TIMEOUT',
    flag: 'keep-alive-timeout',
    def: '72',
    help: 'seconds an idle keep-alive connection stays open (API and gateway)',
    parse: inUnits(seconds(0.1, 3600), SECOND_MS),
  },
  {
    key: 'maxConnections',
    env: 'ACACIA_MAX_CONNECTIONS',
    flag: 'max-connections',
    def: '1000',
    help: 'open connections per listener, API and gateway each (0 = no cap)',
    parse: int(0, 1_000_000),
  },
  {
    key: 'maxConnectionsPerClient',
    env: 'ACACIA_MAX_CONNECTIONS_PER_CLIENT',
    flag: 'max-connections-per-client',
    def: '100',
    help: 'open connections per listener from one client address, an IPv6 /64 counting as one (0 = no cap)',
    parse: int(0, 1_000_000),
  },
  {
    key: 'faultInjection',
    env: 'ACACIA_FAULT_INJECTION',
    flag: 'fault-injection',
    def: 'off',
    help:
      'on accepts and applies x_test_env (injected failures, ' +
      'delays and graph sizes) for tests and CI; off refuses it',
    parse: onOff,
  },
  {
    key: 'chaosMaxRules',
    env: 'ACACIA_CHAOS_MAX_RULES',
    flag: 'chaos-max-rules',
    def: '100',
    help: 'chaos rules in force per organisation (fault injection on only; see docs/chaos.md)',
    parse: int(1, 10_000),
  },
  {
    key: 'workgroupMaxTtlMs',
    env: 'ACACIA_WORKGROUP_MAX_TTL_HOURS',
    flag: 'workgroup-max-ttl-hours',
    def: '2160',
    help: "how far ahead a workgroup's expires_at may be, in hours (2160 = 90 days)",
    see: 'workgroup-expiry.md',
    parse: inUnits(int(1, 87_600), HOUR_MS),
  },
  {
    key: 'workgroupDefaultTtlMs',
    env: 'ACACIA_WORKGROUP_DEFAULT_TTL_HOURS',
    flag: 'workgroup-default-ttl-hours',
    def: '0',
    help:
      'hours a workgroup created without expires_at lives before the engine deletes it and everything ' +
      'in it (0 = it never expires); for CI servers whose runs may die and leave work behind',
    see: 'workgroup-expiry.md',
    parse: inUnits(int(0, 87_600), HOUR_MS),
  },
  {
    key: 'poolSize',
    env: 'ACACIA_POOL_SIZE',
    flag: 'pool-size',
    def: '0',
    help:
      'workgroups, each with an Active workspace, the engine keeps warm for GET /pooled-workgroups/acquire ' +
      'to hand over at once (0 = no pool)',
    see: 'pooled-workgroups.md',
    parse: int(0, 50),
  },
  {
    key: 'poolProvider',
    env: 'ACACIA_POOL_PROVIDER',
    flag: 'pool-provider',
    def: 'aws/us-east-1',
    help: "the public provider (platform/region) of the pool's workgroups",
    see: 'pooled-workgroups.md',
    parse: text,
  },
  {
    key: 'poolWorkspaceType',
    env: 'ACACIA_POOL_WORKSPACE_TYPE',
    flag: 'pool-workspace-type',
    def: 'TG-00',
    help: "the size of each pooled workgroup's read-write workspace",
    see: 'pooled-workgroups.md',
    parse: text,
  },
  {
    key: 'poolTgVersion',
    env: 'ACACIA_POOL_TG_VERSION',
    flag: 'pool-tg-version',
    def: undefined,
    help: "the TigerGraph version of the pool's workspaces; default: the catalog's newest",
    see: 'pooled-workgroups.md',
    parse: text,
  },
  {
    key: 'poolAcquiresPerHour',
    env: 'ACACIA_POOL_ACQUIRES_PER_HOUR',
    flag: 'pool-acquires-per-hour',
    def: '10',
    help: 'pooled workgroups one organisation may acquire in an hour (0 = no cap); more answer 429',
    see: 'pooled-workgroups.md',
    parse: int(0, 1_000_000),
  },
  {
    key: 'keyCache',
    env: 'ACACIA_KEY_CACHE',
    flag: 'key-cache',
    def: 'on',
    help:
      'PostgreSQL: on keeps API keys a process has seen while a LISTEN connection hears every ' +
      'change to them; off looks every key up (behind a pooler that does not carry LISTEN)',
    parse: onOff,
  },
  {
    key: 'serverTiming',
    env: 'ACACIA_SERVER_TIMING',
    flag: 'server-timing',
    def: 'off',
    help:
      'on adds Server-Timing to every API answer: the statements it ran on the store and ' +
      'their time (shown by browser developer tools; the benchmarks read it)',
    parse: onOff,
  },
  {
    key: 'eventRetentionMs',
    env: 'ACACIA_EVENT_RETENTION_HOURS',
    flag: 'event-retention-hours',
    def: '168',
    help: 'hours events are kept for the event stream and its pages',
    see: 'events.md',
    parse: inUnits(int(1, 87_600), HOUR_MS),
  },
  {
    key: 'operationRetentionMs',
    env: 'ACACIA_OPERATION_RETENTION_HOURS',
    flag: 'operation-retention-hours',
    def: '720',
    help:
      'hours finished operations and past schedule runs are kept (GET /operations lists what is kept); ' +
      "a Failed workspace's failed operation and each schedule's last run stay",
    parse: inUnits(int(1, 87_600), HOUR_MS),
  },
  {
    key: 'eventsHeartbeatMs',
    env: 'ACACIA_EVENTS_HEARTBEAT_SECONDS',
    flag: 'events-heartbeat-seconds',
    def: '15',
    help: 'seconds between heartbeat comments on an idle event stream',
    parse: inUnits(seconds(0.05, 3600), SECOND_MS),
  },
  {
    key: 'eventsStallMs',
    env: 'ACACIA_EVENTS_STALL_SECONDS',
    flag: 'events-stall-seconds',
    def: '30',
    help:
      'seconds an event stream waits for a client to take what it was sent (on the server clock) ' +
      'before cutting it off; the client resumes with Last-Event-ID',
    parse: inUnits(seconds(0.05, 3600), SECOND_MS),
  },
  {
    key: 'eventStreamsPerKey',
    env: 'ACACIA_EVENT_STREAMS_PER_KEY',
    flag: 'event-streams-per-key',
    def: '10',
    help: 'open event streams per API key in each process (0 = no cap); more answer 429',
    parse: int(0, 1_000_000),
  },
  {
    key: 'eventStreamsPerOrganisation',
    env: 'ACACIA_EVENT_STREAMS_PER_ORG',
    flag: 'event-streams-per-org',
    def: '100',
    help: 'open event streams per organisation in each process (0 = no cap); more answer 429',
    parse: int(0, 1_000_000),
  },
  {
    key: 'webhookAllowPrivate',
    env: 'ACACIA_WEBHOOK_ALLOW_PRIVATE',
    flag: 'webhook-allow-private',
    def: 'off',
    help:
      'on lets webhooks target any address (tests, private networks); off refuses every one that is not ' +
      'global unicast (loopback, private, link-local, cloud metadata, reserved) when a webhook is created and called',
    see: 'events.md#webhooks',
    parse: onOff,
  },
  {
    key: 'webhookKey',
    env: 'ACACIA_WEBHOOK_KEY',
    flag: 'webhook-key',
    def: undefined,
    help:
      'the key (32 characters or more) webhook signing secrets are derived from, the same on every host; ' +
      'default: webhook.key in the data directory, made once',
    parse: (name, raw) => {
      if (raw.length < 32) throw new ConfigError(name, 'must be at least 32 characters long');
      return raw;
    },
  },
  {
    key: 'corsOrigins',
    env: 'ACACIA_CORS_ORIGINS',
    flag: 'cors-origins',
    def: undefined,
    help: 'comma-separated origins (https://console.example.com) browsers may call the API from, or * for any',
    parse: (name, raw): readonly string[] => {
      const origins = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (origins.includes('*') && origins.length > 1)
        throw new ConfigError(name, 'must be * alone or a list of origins, not both');
      for (const origin of origins) {
        if (origin === '*') continue;
        let url: URL | undefined;
        try {
          url = new URL(origin);
        } catch {
          url = undefined;
        }
        if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin)
          throw new ConfigError(name, `has "${origin}", which is not an origin like https://console.example.com:8443`);
      }
      return origins;
    },
    // None given, none allowed.
    unset: [],
  },
  {
    key: 'paymentProcessorUrl',
    env: 'ACACIA_PAYMENT_PROCESSOR_URL',
    flag: 'payment-processor-url',
    def: undefined,
    help:
      'the payment processor behind the card, invoice and checkout-session routes; unset, they answer ' +
      '501 API-Disabled',
    see: 'billing.md#payment-processing',
    parse: httpUrl,
  },
  {
    key: 'assistantUrl',
    env: 'ACACIA_ASSISTANT_URL',
    flag: 'assistant-url',
    def: undefined,
    help: 'the assistant behind the onboarding chat; unset, it answers 501 API-Disabled',
    see: 'billing.md#payment-processing',
    parse: httpUrl,
  },
  {
    key: 'gsqlOutputLimit',
    env: 'ACACIA_GSQL_OUTPUT_MB',
    flag: 'gsql-output-mb',
    def: '16',
    help:
      'MiB a data-plane process prints for one GSQL request at most (local driver); ' +
      'past it the statements left are not run',
    parse: inUnits(int(1, 1024), MIB),
  },
] as const satisfies readonly SettingOf<string, unknown>[];

type Setting = (typeof settings)[number];
/** A setting's value: what it parses to, or what it is when unset (undefined, unless it says). */
type ValueOf<S extends Setting> =
  ReturnType<S['parse']> | (S['def'] extends string ? never : S extends { unset: infer U } ? U : undefined);

/** The largest request body the API, the gateway and a data-plane process accept (bytes); not a setting. */
export const BODY_LIMIT = 1024 * 1024;

/** The configuration: a value for every setting of the table, and what follows from them. */
export type Config = { -readonly [S in Setting as S['key']]: ValueOf<S> } & {
  /** Catalogs, tiers and limits: the defaults, with ACACIA_CONFIG's parts over them. */
  catalog: Catalog;
  bodyLimit: number;
};

function read(env: Env, s: Setting): unknown {
  const raw = env[s.env] ?? s.def;
  if (raw === undefined || raw === '') return 'unset' in s ? s.unset : undefined;
  return s.parse(s.env, raw);
}

function loadConfigFile(file: string): ConfigFile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError('ACACIA_CONFIG', `cannot be read as JSON: ${(err as Error).message}`);
  }
  const first = Value.Errors(ConfigFile, data).First();
  if (first) throw new ConfigError('ACACIA_CONFIG', `is invalid at ${first.path || '/'}: ${first.message}`);
  return data as ConfigFile;
}

function loadCatalog(configFile: string | undefined): Catalog {
  let catalog: Catalog;
  try {
    catalog = mergeCatalog(defaultCatalog, configFile ? loadConfigFile(configFile) : undefined);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError('ACACIA_CONFIG', (err as Error).message);
  }
  for (const tier of Object.values(catalog.tiers)) {
    if (!catalog.workspace_sizes.some((s) => s.typeName === tier.max_size)) {
      throw new ConfigError('ACACIA_CONFIG', `names tier max_size "${tier.max_size}" that is not in workspace_sizes`);
    }
  }
  return catalog;
}

/** The pool's template must name what the catalog has: a public provider, a size and a version. */
function checkPoolTemplate(config: Config): void {
  const { catalog } = config;
  const [platform, region, rest] = config.poolProvider.split('/');
  const regions = (catalog.regions as Record<string, readonly string[] | undefined>)[platform ?? ''];
  if (rest !== undefined || region === undefined || !regions?.includes(region))
    throw new ConfigError(
      'ACACIA_POOL_PROVIDER',
      `must be platform/region of the catalog (got "${config.poolProvider}")`,
    );
  if (!catalog.workspace_sizes.some((s) => s.typeName === config.poolWorkspaceType))
    throw new ConfigError(
      'ACACIA_POOL_WORKSPACE_TYPE',
      `must be one of ${catalog.workspace_sizes.map((s) => s.typeName).join(', ')}`,
    );
  const versions = catalog.tg_versions.map((v) => v.name);
  if (config.poolTgVersion !== undefined && !versions.includes(config.poolTgVersion))
    throw new ConfigError('ACACIA_POOL_TG_VERSION', `must be one of ${versions.join(', ')}`);
}

/** Parses and validates the whole configuration once; the result is frozen and passed down. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const values = Object.fromEntries(settings.map((s) => [s.key, read(env, s)])) as Omit<
    Config,
    'catalog' | 'bodyLimit'
  >;
  const config: Config = { ...values, catalog: loadCatalog(values.configFile), bodyLimit: BODY_LIMIT };
  checkPoolTemplate(config);
  // Node refuses a headers timeout longer than the request timeout it is part of.
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError(
      'ACACIA_HEADERS_TIMEOUT',
      `must not exceed ACACIA_REQUEST_TIMEOUT (${config.headersTimeoutMs / 1000} ` +
        `s > ${config.requestTimeoutMs / 1000} s)`,
    );
  }
  return Object.freeze(config);
}
