import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { ConfigFile, type Catalog } from './schemas/catalog.js';
import { defaultCatalog, mergeCatalog } from './domain/catalog.js';
import { normaliseCidr } from './addresses/cidr.js';
import { driverNames, type DriverName } from './engine/drivers/index.js';
import { logLevels, type LogLevel } from './logger.js';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export type ClockMode = 'system' | 'manual';

export interface Config {
  host: string;
  port: number;
  gatewayPort: number;
  dataDir: string;
  databaseUrl: string | undefined;
  bootstrapApiKey: string | undefined;
  clock: ClockMode;
  /** The provisioner driver (ACACIA_DRIVER). */
  driver: DriverName;
  simSpeed: number;
  /** The wait before the first retry of a failed engine step (ms); it doubles up to 30 times this. */
  retryBackoffMs: number;
  baseDomain: string;
  trustProxy: string[] | undefined;
  configFile: string | undefined;
  logLevel: LogLevel;
  rateLimit: number;
  catalog: Catalog;
  bodyLimit: number;
  /** Time a client may take to send a request's headers, then its whole request (ms). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Time an idle keep-alive connection stays open (ms). */
  keepAliveTimeoutMs: number;
  /** Open connections per listener; 0 = no cap. */
  maxConnections: number;
  /** Open connections per listener from one client address (IPv6: one /64); 0 = no cap. */
  maxConnectionsPerClient: number;
  /** Whether `x_test_env` (fault injection of the simulated provisioner) is accepted and applied. */
  faultInjection: boolean;
  /** Whether API answers carry a Server-Timing header with their store statements and time. */
  serverTiming: boolean;
  /** PostgreSQL: keep API keys seen while their changes are heard (src/store/key-cache.ts). */
  keyCache: boolean;
  /** Origins a browser may call the API from; `['*']` = any (without credentials); empty = none. */
  corsOrigins: readonly string[];
  /** How long events are kept before the engine prunes them (ms). */
  eventRetentionMs: number;
  /** How long finished operations and past schedule runs are kept before the engine prunes them (ms). */
  operationRetentionMs: number;
  /** Time between heartbeat comments on an idle event stream (ms). */
  eventsHeartbeatMs: number;
  /** Time an event stream waits for its client to take what it was sent before cutting it off (ms). */
  eventsStallMs: number;
  /** Open event streams per API key, and per organisation, in each process; 0 = no cap. */
  eventStreamsPerKey: number;
  eventStreamsPerOrganisation: number;
  /** Whether webhooks may target loopback, private, link-local and metadata addresses. */
  webhookAllowPrivate: boolean;
  /** The key webhook signing secrets are derived from (ACACIA_WEBHOOK_KEY); else webhook.key in the data directory. */
  webhookKey: string | undefined;
  /** The most a data-plane process prints for one GSQL request (bytes); the statements after are not run. */
  gsqlOutputLimit: number;
}

type Env = Record<string, string | undefined>;

const int = (min: number, max: number) => (name: string, raw: string) => {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  return n;
};
const oneOf =
  <T extends string>(values: readonly T[]) =>
  (name: string, raw: string) => {
    if (!values.includes(raw as T)) throw new ConfigError(name, `must be one of ${values.join(', ')} (got "${raw}")`);
    return raw as T;
  };
const seconds = (min: number, max: number) => (name: string, raw: string) => {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max)
    throw new ConfigError(name, `must be a number of seconds from ${min} to ${max} (got "${raw}")`);
  return n;
};
const text = (name: string, raw: string) => {
  if (raw.trim() === '') throw new ConfigError(name, 'must not be empty');
  return raw;
};

/**
 * Every setting: its environment variable, `acacia serve` flag, default and meaning.
 * The CLI builds its flags and help text from this table, so they cannot drift apart.
 */
export const settings = [
  { env: 'ACACIA_HOST', flag: 'host', def: '127.0.0.1', help: 'address the API and gateway listen on', parse: text },
  {
    env: 'ACACIA_PORT',
    flag: 'port',
    def: '8080',
    help: 'API port (0 = pick a free port and log it)',
    parse: int(0, 65535),
  },
  {
    env: 'ACACIA_GATEWAY_PORT',
    flag: 'gateway-port',
    def: '14240',
    help: 'data-plane gateway port (0 = pick a free port and log it)',
    parse: int(0, 65535),
  },
  {
    env: 'ACACIA_DATA_DIR',
    flag: 'data-dir',
    def: './data',
    help: 'directory of the SQLite file and the bootstrap key',
    parse: text,
  },
  {
    env: 'DATABASE_URL',
    flag: 'database-url',
    def: undefined,
    help: 'postgres://… selects PostgreSQL instead of SQLite',
    parse: (name: string, raw: string) => {
      if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError(name, 'must be a postgres:// or postgresql:// URL');
      return raw;
    },
  },
  {
    env: 'ACACIA_BOOTSTRAP_API_KEY',
    flag: 'bootstrap-api-key',
    def: undefined,
    help: 'the first org-admin key on an empty store',
    parse: (name: string, raw: string) => {
      if (raw.length < 32 || raw.length > 256 || /\s/.test(raw))
        throw new ConfigError(name, 'must be 32 to 256 characters without white space');
      return raw;
    },
  },
  {
    env: 'ACACIA_CLOCK',
    flag: 'clock',
    def: 'system',
    help: 'system, or manual to enable the test clock and POST /_test/clock',
    parse: oneOf(['system', 'manual'] as const),
  },
  {
    env: 'ACACIA_DRIVER',
    flag: 'driver',
    def: 'simulated',
    help: `provisioner driver: ${driverNames.join(', ')}`,
    parse: oneOf(driverNames),
  },
  {
    env: 'ACACIA_RETRY_BACKOFF',
    flag: 'retry-backoff',
    def: '2',
    help:
      'seconds before the first retry of a failed engine step; each retry waits twice as long, ' +
      'up to 30 times this (0 = at once)',
    parse: seconds(0, 3600),
  },
  {
    env: 'ACACIA_SIM_SPEED',
    flag: 'sim-speed',
    def: '1',
    help: 'simulated provisioner speed factor (0 = next tick)',
    parse: (name: string, raw: string) => {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1000)
        throw new ConfigError(name, `must be a number from 0 to 1000 (got "${raw}")`);
      return n;
    },
  },
  {
    env: 'ACACIA_BASE_DOMAIN',
    flag: 'base-domain',
    def: 'localhost',
    help: 'domain of workspace proxy_host names',
    parse: (name: string, raw: string) => {
      if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(raw))
        throw new ConfigError(name, `must be a DNS domain (got "${raw}")`);
      return raw.toLowerCase();
    },
  },
  {
    env: 'ACACIA_TRUST_PROXY',
    flag: 'trust-proxy',
    def: undefined,
    help: 'comma-separated addresses or CIDRs (or loopback, linklocal, uniquelocal) whose X-Forwarded-For is trusted',
    parse: (name: string, raw: string) =>
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
    env: 'ACACIA_CONFIG',
    flag: 'config',
    def: undefined,
    help: 'JSON file overriding catalogs, tiers and limits',
    parse: text,
  },
  {
    env: 'ACACIA_LOG_LEVEL',
    flag: 'log-level',
    def: 'info',
    help: `log level (${logLevels.join(', ')})`,
    parse: oneOf(logLevels),
  },
  {
    env: 'ACACIA_RATE_LIMIT',
    flag: 'rate-limit',
    def: '6000',
    help: 'requests per minute per API key (0 = off)',
    parse: int(0, 10_000_000),
  },
  {
    env: 'ACACIA_HEADERS_TIMEOUT',
    flag: 'headers-timeout',
    def: '10',
    help: 'seconds a client may take to send the headers of a request (API and gateway)',
    parse: seconds(0.1, 3600),
  },
  {
    env: 'ACACIA_REQUEST_TIMEOUT',
    flag: 'request-timeout',
    def: '30',
    help: 'seconds a client may take to send a whole request (API and gateway)',
    parse: seconds(0.1, 3600),
  },
  {
    env: 'ACACIA_KEEP_ALIVE_TIMEOUT',
    flag: 'keep-alive-timeout',
    def: '72',
    help: 'seconds an idle keep-alive connection stays open (API and gateway)',
    parse: seconds(0.1, 3600),
  },
  {
    env: 'ACACIA_MAX_CONNECTIONS',
    flag: 'max-connections',
    def: '1000',
    help: 'open connections per listener, API and gateway each (0 = no cap)',
    parse: int(0, 1_000_000),
  },
  {
    env: 'ACACIA_MAX_CONNECTIONS_PER_CLIENT',
    flag: 'max-connections-per-client',
    def: '100',
    help: 'open connections per listener from one client address, an IPv6 /64 counting as one (0 = no cap)',
    parse: int(0, 1_000_000),
  },
  {
    env: 'ACACIA_FAULT_INJECTION',
    flag: 'fault-injection',
    def: 'off',
    help:
      'on accepts and applies x_test_env (injected failures, ' +
      'delays and graph sizes) for tests and CI; off refuses it',
    parse: oneOf(['on', 'off'] as const),
  },
  {
    env: 'ACACIA_KEY_CACHE',
    flag: 'key-cache',
    def: 'on',
    help:
      'PostgreSQL: on keeps API keys a process has seen while a LISTEN connection hears every ' +
      'change to them; off looks every key up (behind a pooler that does not carry LISTEN)',
    parse: oneOf(['on', 'off'] as const),
  },
  {
    env: 'ACACIA_SERVER_TIMING',
    flag: 'server-timing',
    def: 'off',
    help:
      'on adds Server-Timing to every API answer: the statements it ran on the store and ' +
      'their time (shown by browser developer tools; the benchmarks read it)',
    parse: oneOf(['on', 'off'] as const),
  },
  {
    env: 'ACACIA_EVENT_RETENTION_HOURS',
    flag: 'event-retention-hours',
    def: '168',
    help: 'hours events are kept for the event stream and its pages',
    parse: int(1, 87_600),
  },
  {
    env: 'ACACIA_OPERATION_RETENTION_HOURS',
    flag: 'operation-retention-hours',
    def: '720',
    help:
      'hours finished operations and past schedule runs are kept (GET /operations lists what is kept); ' +
      "a Failed workspace's failed operation and each schedule's last run stay",
    parse: int(1, 87_600),
  },
  {
    env: 'ACACIA_EVENTS_HEARTBEAT_SECONDS',
    flag: 'events-heartbeat-seconds',
    def: '15',
    help: 'seconds between heartbeat comments on an idle event stream',
    parse: seconds(0.05, 3600),
  },
  {
    env: 'ACACIA_EVENTS_STALL_SECONDS',
    flag: 'events-stall-seconds',
    def: '30',
    help:
      'seconds an event stream waits for a client to take what it was sent (on the server clock) ' +
      'before cutting it off; the client resumes with Last-Event-ID',
    parse: seconds(0.05, 3600),
  },
  {
    env: 'ACACIA_EVENT_STREAMS_PER_KEY',
    flag: 'event-streams-per-key',
    def: '10',
    help: 'open event streams per API key in each process (0 = no cap)',
    parse: int(0, 1_000_000),
  },
  {
    env: 'ACACIA_EVENT_STREAMS_PER_ORG',
    flag: 'event-streams-per-org',
    def: '100',
    help: 'open event streams per organisation in each process (0 = no cap)',
    parse: int(0, 1_000_000),
  },
  {
    env: 'ACACIA_WEBHOOK_ALLOW_PRIVATE',
    flag: 'webhook-allow-private',
    def: 'off',
    help:
      'on lets webhooks target any address (tests, private networks); off refuses every one that is not ' +
      'global unicast (loopback, private, link-local, cloud metadata, reserved) when a webhook is created and called',
    parse: oneOf(['on', 'off'] as const),
  },
  {
    env: 'ACACIA_WEBHOOK_KEY',
    flag: 'webhook-key',
    def: undefined,
    help:
      'the key (32 characters or more) webhook signing secrets are derived from, the same on every host; ' +
      'default: webhook.key in the data directory, made once',
    parse: (name: string, raw: string) => {
      if (raw.length < 32) throw new ConfigError(name, 'must be at least 32 characters long');
      return raw;
    },
  },
  {
    env: 'ACACIA_CORS_ORIGINS',
    flag: 'cors-origins',
    def: undefined,
    help: 'comma-separated origins (https://console.example.com) browsers may call the API from, or * for any',
    parse: (name: string, raw: string) => {
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
  },
  {
    env: 'ACACIA_GSQL_OUTPUT_MB',
    flag: 'gsql-output-mb',
    def: '16',
    help:
      'MiB a data-plane process prints for one GSQL request at most (local driver); ' +
      'past it the statements left are not run',
    parse: int(1, 1024),
  },
] as const;

type Setting = (typeof settings)[number];
type Parsed<S extends Setting> = ReturnType<S['parse']>;

function read<S extends Setting>(env: Env, s: S): Parsed<S> | undefined {
  const raw = env[s.env] ?? s.def;
  if (raw === undefined || raw === '') return undefined;
  return s.parse(s.env, raw) as Parsed<S>;
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

const byEnv = <N extends Setting['env']>(name: N) =>
  settings.find((s) => s.env === name) as Extract<Setting, { env: N }>;

/** Parses and validates the whole configuration once; the result is frozen and passed down. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const configFile = read(env, byEnv('ACACIA_CONFIG'));
  const catalog = mergeCatalog(defaultCatalog, configFile ? loadConfigFile(configFile) : undefined);
  for (const tier of Object.values(catalog.tiers)) {
    if (!catalog.workspace_sizes.some((s) => s.typeName === tier.max_size)) {
      throw new ConfigError('ACACIA_CONFIG', `names tier max_size "${tier.max_size}" that is not in workspace_sizes`);
    }
  }
  const config: Config = {
    host: read(env, byEnv('ACACIA_HOST'))!,
    port: read(env, byEnv('ACACIA_PORT'))!,
    gatewayPort: read(env, byEnv('ACACIA_GATEWAY_PORT'))!,
    dataDir: path.resolve(read(env, byEnv('ACACIA_DATA_DIR'))!),
    databaseUrl: read(env, byEnv('DATABASE_URL')),
    bootstrapApiKey: read(env, byEnv('ACACIA_BOOTSTRAP_API_KEY')),
    clock: read(env, byEnv('ACACIA_CLOCK'))!,
    driver: read(env, byEnv('ACACIA_DRIVER'))!,
    simSpeed: read(env, byEnv('ACACIA_SIM_SPEED'))!,
    retryBackoffMs: Math.round(read(env, byEnv('ACACIA_RETRY_BACKOFF'))! * 1000),
    baseDomain: read(env, byEnv('ACACIA_BASE_DOMAIN'))!,
    trustProxy: read(env, byEnv('ACACIA_TRUST_PROXY')),
    configFile,
    logLevel: read(env, byEnv('ACACIA_LOG_LEVEL'))!,
    rateLimit: read(env, byEnv('ACACIA_RATE_LIMIT'))!,
    catalog,
    bodyLimit: 1024 * 1024,
    headersTimeoutMs: Math.round(read(env, byEnv('ACACIA_HEADERS_TIMEOUT'))! * 1000),
    requestTimeoutMs: Math.round(read(env, byEnv('ACACIA_REQUEST_TIMEOUT'))! * 1000),
    keepAliveTimeoutMs: Math.round(read(env, byEnv('ACACIA_KEEP_ALIVE_TIMEOUT'))! * 1000),
    maxConnections: read(env, byEnv('ACACIA_MAX_CONNECTIONS'))!,
    maxConnectionsPerClient: read(env, byEnv('ACACIA_MAX_CONNECTIONS_PER_CLIENT'))!,
    faultInjection: read(env, byEnv('ACACIA_FAULT_INJECTION')) === 'on',
    serverTiming: read(env, byEnv('ACACIA_SERVER_TIMING')) === 'on',
    keyCache: read(env, byEnv('ACACIA_KEY_CACHE')) === 'on',
    corsOrigins: read(env, byEnv('ACACIA_CORS_ORIGINS')) ?? [],
    eventRetentionMs: read(env, byEnv('ACACIA_EVENT_RETENTION_HOURS'))! * 3_600_000,
    operationRetentionMs: read(env, byEnv('ACACIA_OPERATION_RETENTION_HOURS'))! * 3_600_000,
    eventsHeartbeatMs: Math.round(read(env, byEnv('ACACIA_EVENTS_HEARTBEAT_SECONDS'))! * 1000),
    eventsStallMs: Math.round(read(env, byEnv('ACACIA_EVENTS_STALL_SECONDS'))! * 1000),
    eventStreamsPerKey: read(env, byEnv('ACACIA_EVENT_STREAMS_PER_KEY'))!,
    eventStreamsPerOrganisation: read(env, byEnv('ACACIA_EVENT_STREAMS_PER_ORG'))!,
    webhookAllowPrivate: read(env, byEnv('ACACIA_WEBHOOK_ALLOW_PRIVATE')) === 'on',
    webhookKey: read(env, byEnv('ACACIA_WEBHOOK_KEY')),
    gsqlOutputLimit: read(env, byEnv('ACACIA_GSQL_OUTPUT_MB'))! * 1024 * 1024,
  };
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
