import { AcaciaClient } from '../src/client/index.js';
import { newKeyText } from '../test/helpers/server.js';
import { spentDuring, statementsRun } from './process-stats.js';
import { writeQuotaFreeConfig } from './quota-free-config.js';
import { startServer, type ServerProcess } from './server-process.js';
import { freshStore, type StoreKind } from './store-location.js';
import { activeWorkgroup } from './wait.js';

/** What a server holding workspaces costs while nobody asks it anything. */
export interface IdleRow {
  store: StoreKind;
  workspaces: number;
  seconds: number;
  /** Server CPU (user + system) per minute of idling, milliseconds. */
  cpuMsPerMinute: number;
  /** Store statements per minute of idling (the engine's probes, the metrics' own reads excluded). */
  statementsPerMinute: number;
}

/** Workspaces the idle server holds (Active, none due for anything). */
const WORKSPACES = 20;

/**
 * Starts a server on a fresh store, gives it `WORKSPACES` Active workspaces, lets it settle,
 * then reads its CPU time and statement count across `seconds` of idling.
 */
export async function idleBench(
  kind: StoreKind,
  opts: { seconds: number; progress: (text: string) => void },
): Promise<IdleRow> {
  opts.progress(`${kind}: idle engine, ${opts.seconds} s`);
  const store = await freshStore(kind);
  let server: ServerProcess | undefined;
  try {
    const apiKey = newKeyText('bench');
    server = await startServer(store, { apiKey, configFile: writeQuotaFreeConfig(store.dataDir) });
    const client = new AcaciaClient({ baseUrl: server.url, apiKey });
    await activeWorkgroup(client, 'idle', WORKSPACES);
    await new Promise((r) => setTimeout(r, 2000));
    // A scrape of /metrics runs statements of its own: the same two scrapes bracket an
    // empty interval first, and that cost is taken off.
    const scrapeCost = -((await statementsRun(server.url))! - (await statementsRun(server.url))!);
    const spent = await spentDuring(
      { pid: server.pid, metricsUrl: server.url },
      () => new Promise((r) => setTimeout(r, opts.seconds * 1000)),
    );
    const cpu = spent.cpu!;
    const statements = spent.statements! - scrapeCost;
    const perMinute = 60 / opts.seconds;
    return {
      store: kind,
      workspaces: WORKSPACES,
      seconds: opts.seconds,
      cpuMsPerMinute: cpu * 1000 * perMinute,
      statementsPerMinute: statements * perMinute,
    };
  } finally {
    await server?.stop();
    await store.dispose();
  }
}
