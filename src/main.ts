import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import type { Config } from './config.js';
import { createServices, type Services } from './domain/services.js';
import { buildGateway } from './gateway/app.js';
import { consoleGraphBackend } from './gateway/console-graph-backend.js';
import { listenExtraPorts, type ExtraPorts } from './gateway/extra-ports.js';
import { localBackend } from './gateway/local-backend.js';
import { simulatedBackend } from './gateway/simulated-backend.js';
import type { WorkspaceBackend } from './gateway/workspace-backend.js';
import { systemClock } from './domain/clock.js';
import { seedIds } from './domain/ids.js';
import { createDrivers } from './engine/drivers/index.js';
import { Engine } from './engine/engine.js';
import { InstanceControl } from './engine/instance-control.js';
import { FaultInjection } from './engine/fault-injection/index.js';
import { withRegionOutages } from './engine/fault-injection/region-outages.js';
import { roleVerifier } from './engine/role-verifier.js';
import { metricsReader } from './engine/workspace-metrics.js';
import { loadManualClock, syncManualClock } from './engine/shared-clock.js';
import { buildApp } from './http/app.js';
import { CONSOLE_PATH } from './http/console.js';
import { eventWriter } from './domain/events.js';
import { ChaosService } from './domain/chaos.js';
import { createLogger } from './logger.js';
import { installationKey } from './dataplane/secret-key.js';
import { WEBHOOK_KEY_FILE, type WebhookSettings } from './domain/webhooks.js';
import { resolveByDns, type ResolveHost } from './domain/webhook-targets.js';
import { processMetrics } from './metrics.js';
import { openStore } from './store/store.js';

export const version: string = createRequire(import.meta.url)('../package.json').version;

export interface RunningServer {
  app: FastifyInstance;
  /** Base URL of the API, e.g. http://127.0.0.1:8080 */
  url: string;
  /** Base URL of the data-plane gateway, e.g. http://127.0.0.1:14240 */
  gatewayUrl: string;
  services: Services;
  engine: Engine;
  logger: Logger;
  /** Stops accepting, finishes in-flight requests, then closes the store. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Log destination (default stdout). */
  logDestination?: DestinationStream;
  /** Where the one-time bootstrap key notice is written (default stderr). */
  notice?: (text: string) => void;
  /** Serves admitted gateway requests beyond the handshake (default: the simulated driver's). */
  gatewayBackend?: WorkspaceBackend;
  /** Resolves webhook targets' host names (default: the system's resolver); tests answer names of their own. */
  resolveWebhookHost?: ResolveHost;
}

/** Writes a generated bootstrap key where only the operator can read it. */
function saveBootstrapKey(dataDir: string, plaintext: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'bootstrap-key');
  writeFileSync(file, `${plaintext}\n`, { mode: 0o600 });
  // The mode is given only to a file made now: narrow one that was there before.
  chmodSync(file, 0o600);
  return file;
}

/** The URL a listening Fastify answers on (the port it got when asked for 0). */
function baseUrl(app: FastifyInstance, host: string, fallbackPort: number): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : fallbackPort;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The composition root: store, domain, HTTP, listening. */
export async function startServer(config: Readonly<Config>, options: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger(config.logLevel, options.logDestination, config.logFormat);
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    keyCache: config.keyCache,
    onConnectionError: (err) => logger.warn({ err }, 'a database connection failed; it will be replaced'),
  });
  const manualClock = config.clock === 'manual' ? await loadManualClock(store) : undefined;
  const clock = manualClock ?? systemClock;
  const syncClock = manualClock && (() => syncManualClock(store, manualClock));
  seedIds(config.idSeed, clock);
  const faults = new FaultInjection(config.faultInjection, config.catalog);
  let drivers;
  // The engine is made after the drivers; a loss reported before it exists waits for its first pass.
  let runtimeLost = () => undefined as void;
  try {
    drivers = faults.wrap(
      await createDrivers(config.driver, { config, logger, store, clock, runtimeLost: () => runtimeLost() }),
    );
  } catch (err) {
    await store.close();
    throw err;
  }
  // Chaos rules (fault injection): the API, the gateway and the engine's steps apply the same copy.
  const chaos = new ChaosService(store, clock, config.catalog, {
    enabled: config.faultInjection,
    maxRules: config.chaosMaxRules,
  });
  drivers = withRegionOutages(drivers, chaos, store);
  const metrics = processMetrics(store, clock);
  // Signing secrets derive from this key: shared by ACACIA_WEBHOOK_KEY, or made once in the data directory.
  const webhookKey = (): Buffer =>
    config.webhookKey !== undefined
      ? Buffer.from(config.webhookKey, 'utf8')
      : installationKey(config.dataDir, WEBHOOK_KEY_FILE);
  const webhooks: WebhookSettings = {
    allowPrivate: config.webhookAllowPrivate,
    key: webhookKey,
    resolve: options.resolveWebhookHost ?? resolveByDns,
  };
  const engine = new Engine({
    store,
    clock,
    drivers,
    logger,
    catalog: config.catalog,
    retryBackoffMs: config.retryBackoffMs,
    observer: metrics.engine,
    eventRetentionMs: config.eventRetentionMs,
    operationRetentionMs: config.operationRetentionMs,
    webhooks,
    // The services are made below, with the engine's wake; the pool is refilled once both exist.
    ...(config.poolSize > 0 ? { pool: { refill: () => services.pool.refill() } } : {}),
  });
  // Every transaction's noted changes become events in it (src/domain/events.ts).
  store.recordEventsWith(eventWriter(clock, { catalog: config.catalog, baseDomain: config.baseDomain }));
  runtimeLost = () => engine.runtimeLost();
  const services = createServices(store, clock, config.catalog, {
    baseDomain: config.baseDomain,
    notify: () => engine.wake(),
    roles: roleVerifier(drivers.account),
    testEnv: faults,
    webhooks,
    chaos,
    readMetrics: metricsReader(drivers, config.catalog, clock),
    workgroupExpiry: { maxTtlMs: config.workgroupMaxTtlMs, defaultTtlMs: config.workgroupDefaultTtlMs },
    billing: { paymentProcessorUrl: config.paymentProcessorUrl, assistantUrl: config.assistantUrl },
    pool: {
      size: config.poolSize,
      provider: config.poolProvider,
      workspaceType: config.poolWorkspaceType,
      tgVersion: config.poolTgVersion,
      acquiresPerHour: config.poolAcquiresPerHour,
    },
    poolRefill: () => engine.refillPool(),
  });

  try {
    await services.chaos.start();
    await services.cloudProviders.seedPublic();
    const boot = await services.organisations.bootstrap(config.bootstrapApiKey);
    if (boot?.plaintext && !config.bootstrapApiKey) {
      const file = saveBootstrapKey(config.dataDir, boot.plaintext);
      // Shown once, outside the JSON log stream, so it never lands in collected logs.
      (options.notice ?? ((t) => process.stderr.write(t)))(
        `\nCreated organisation "default" and its first org-admin API key:\n\n  ` +
          `${boot.plaintext}\n\nIt is also saved in ${file} (mode 0600). It will not be shown again.\n\n`,
      );
    }
  } catch (err) {
    await drivers.close();
    await store.close();
    throw err;
  }

  // Known once both listen; until then /readyz says the gateway is not ready and /_status has no addresses.
  const addresses: { listening?: { url: string; gatewayUrl: string; startedAt: Date } } = {};
  const instance = new InstanceControl({ store, engine, drivers, clock, settings: config });
  if (config.snapshot !== undefined) {
    try {
      await instance.load(config.snapshot, true);
    } catch (err) {
      await drivers.close();
      await store.close();
      throw err;
    }
  }
  // The local driver's workspaces have a data-plane process to proxy to; the simulated ones have none.
  const backend =
    options.gatewayBackend ?? (config.driver === 'local' ? localBackend({ dataDir: config.dataDir }) : undefined);
  const app = await buildApp({
    instance,
    graphBackend: consoleGraphBackend(backend ?? simulatedBackend),
    config,
    gatewayUrl: () => addresses.listening?.gatewayUrl,
    services,
    logger,
    version,
    metricsRegistry: metrics.registry,
    readiness: {
      store: async () => (await store.ping(), true),
      engine: async () => engine.running,
      gateway: async () => addresses.listening !== undefined && gateway.server.listening,
    },
    status: ({ listening } = addresses) => ({
      status: 'up',
      version,
      pid: process.pid,
      started_at: (listening?.startedAt ?? new Date()).toISOString(),
      uptime_seconds: listening ? Math.max(0, (Date.now() - listening.startedAt.getTime()) / 1000) : 0,
      url: listening?.url ?? '',
      gateway_url: listening?.gatewayUrl ?? '',
      console_url: listening ? `${listening.url}${CONSOLE_PATH}` : '',
      driver: config.driver,
      sim_speed: config.simSpeed,
      store: store.dialect === 'postgres' ? 'postgres' : 'sqlite',
      clock: config.clock,
      now: new Date(clock.now()).toISOString(),
      fault_injection: config.faultInjection,
    }),
    ...(manualClock
      ? {
          testClock: {
            now: () => manualClock.now(),
            sync: syncClock!,
            moveTo: (target: number) => engine.advanceTo(target),
            jumpTo: (target: number) => engine.jumpTo(target),
          },
        }
      : {}),
  });
  engine.start();

  const gateway = buildGateway({
    config,
    services,
    logger,
    ...(backend ? { backend } : {}),
    answered: metrics.gatewayAnswered,
    ...(syncClock ? { syncClock } : {}),
  });
  let extraPorts: ExtraPorts | undefined;
  const shutdown = async () => {
    services.chaos.stop();
    await app.close();
    await extraPorts?.close();
    await gateway.close();
    await backend?.close?.();
    await engine.stop();
    await drivers.close();
    await store.close();
  };

  try {
    // Fastify logs each address it listens on; the line after these sums both up.
    await app.listen({ host: config.host, port: config.port, listenTextResolver: (a) => `API listening at ${a}` });
    await gateway.listen({
      host: config.host,
      port: config.gatewayPort,
      listenTextResolver: (a) => `gateway listening at ${a}`,
    });
    if (config.gatewayExtraPorts.length > 0)
      extraPorts = await listenExtraPorts(gateway, config.host, config.gatewayExtraPorts, config);
  } catch (err) {
    await shutdown();
    throw err;
  }
  const url = baseUrl(app, config.host, config.port);
  const gatewayUrl = baseUrl(gateway, config.host, config.gatewayPort);
  addresses.listening = { url, gatewayUrl, startedAt: new Date() };
  logger.info(
    { api: url, gateway: gatewayUrl, store: store.dialect, clock: config.clock, version },
    `Acacia listening: API ${url}, gateway ${gatewayUrl}`,
  );

  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    gatewayUrl,
    services,
    engine,
    logger,
    close: () =>
      (closing ??= (async () => {
        await shutdown();
        logger.flush();
      })()),
  };
}
