import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { AcaciaClient, resultOf } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import type { Role } from '../../src/schemas/api-key.js';
import type { Tier } from '../../src/schemas/catalog.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/main.js';
import { createStore, type StoreLocation } from './store-location.js';

/**
 * The suite runs on SQLite by default; with ACACIA_TEST_DATABASE_URL (an admin connection
 * to a PostgreSQL server) every test server gets a fresh database of its own.
 */
const pgAdminUrl = process.env.ACACIA_TEST_DATABASE_URL;
export const storeName = pgAdminUrl ? 'postgres' : 'sqlite';

export type { StoreLocation };

/** A fresh store for one test server: SQLite, or a database of its own on PostgreSQL. */
export function freshStore(): Promise<StoreLocation> {
  return createStore(pgAdminUrl, 'acacia-test');
}

/** A new API key's text; `tag` marks what made it (a test or the bench). */
export function newKeyText(tag = 'test'): string {
  return `acacia_sk_${tag}${randomBytes(24).toString('base64url')}`;
}

export interface TestServer {
  url: string;
  /** Client with the bootstrap org-admin key of organisation `default` (enterprise). */
  client: AcaciaClient;
  bootstrapKey: string;
  running: RunningServer;
  store: StoreLocation;
  /** Every log line the server wrote. */
  logs: string[];
  /** A new organisation (or an existing one) and a key for it, as `acacia admin keys create` makes them. */
  orgClient(
    org: string,
    opts?: { tier?: Tier; role?: Role; workgroupIds?: string[]; workspaceIds?: string[] },
  ): Promise<AcaciaClient>;
  /** Stops the server and starts it again on the same store. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestServer(
  env: Record<string, string> = {},
  store?: StoreLocation,
  options: Pick<StartOptions, 'gatewayBackend' | 'resolveWebhookHost'> = {},
): Promise<TestServer> {
  const location = store ?? (await freshStore());
  const bootstrapKey = newKeyText();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const env0 = {
    ACACIA_PORT: '0',
    ACACIA_GATEWAY_PORT: '0',
    ACACIA_DATA_DIR: location.dataDir,
    ACACIA_BOOTSTRAP_API_KEY: bootstrapKey,
    ACACIA_LOG_LEVEL: 'info',
    // The suite injects faults through x_test_env; test/fault-injection.test.ts turns it off.
    ACACIA_FAULT_INJECTION: 'on',
    // A failed step is retried at once, so tests of failures need not move the clock past back-offs.
    ACACIA_RETRY_BACKOFF: '0',
    // The realistic pace the suite's durations were written for; a test may ask for another.
    ACACIA_SIM_SPEED: 'realistic',
    ...(location.databaseUrl ? { DATABASE_URL: location.databaseUrl } : {}),
    ...env,
  };
  const start = (port = env0.ACACIA_PORT) =>
    startServer(loadConfig({ ...env0, ACACIA_PORT: port }), {
      ...options,
      logDestination: sink,
      notice: (t) => logs.push(t),
    });
  let running = await start();
  let seq = 0;

  const server: TestServer = {
    get url() {
      return running.url;
    },
    get client() {
      return new AcaciaClient({ baseUrl: running.url, apiKey: bootstrapKey });
    },
    bootstrapKey,
    get running() {
      return running;
    },
    store: location,
    logs,
    async orgClient(orgName, opts = {}) {
      const services = running.services;
      const org = await services.organisations.ensure(orgName, opts.tier ?? 'enterprise');
      const key = await services.apiKeys.issue({
        orgId: org.id,
        keyName: `test-${++seq}`,
        role: opts.role ?? 'org-admin',
        workgroupIds: opts.workgroupIds,
        workspaceIds: opts.workspaceIds,
      });
      return new AcaciaClient({ baseUrl: running.url, apiKey: key.plaintext_key! });
    },
    /** Restarts on the same port, so clients made before keep working. */
    async restart() {
      const port = new URL(running.url).port;
      await running.close();
      // This process's pooled connections to the old server may not have seen it close them
      // yet: a request sent on one fails with "other side closed". Later requests (clients
      // take the global dispatcher at each call) open fresh connections to the new server.
      const stale = getGlobalDispatcher();
      setGlobalDispatcher(new Agent());
      void stale.close();
      running = await start(port);
    },
    async close() {
      await running.close();
      if (!store) await location.dispose();
    },
  };
  return server;
}

/** The id of an Active public provider for the platform and region. */
export async function publicProvider(client: AcaciaClient, platform = 'aws', region = 'us-east-1'): Promise<string> {
  const providers = resultOf(await client.cloudProviders.list());
  const found = providers.find((p) => p.type === 'public' && p.platform === platform && p.region === region);
  if (!found) throw new Error(`no public provider ${platform}/${region}`);
  return found.id;
}
