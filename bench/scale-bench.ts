import { sql } from 'kysely';
import { API_PREFIX } from '../src/client/index.js';
import { openStore, type Store } from '../src/store/store.js';
import { newKeyText } from '../test/helpers/server.js';
import type { StoreLocation } from '../test/helpers/store-location.js';
import { loadMedian, type LoadResult } from './load.js';
import { writeQuotaFreeConfig } from './quota-free-config.js';
import {
  SCHEDULES_PER_WORKSPACE,
  WORKSPACES_PER_BLOCK,
  seedBlocks,
  type SeedContext,
  type SeededWorkspace,
} from './seed.js';
import { startServer } from './server-process.js';
import { freshStore, type StoreKind } from './store-location.js';
import { measureTicks, type TickCost } from './tick-cost.js';

/** Figures at one size of the scale benchmark. */
export interface ScaleRow {
  store: StoreKind;
  schedules: number;
  workspaces: number;
  ticks: TickCost;
  /** GET …/workspaces/{ws}/schedules (10 schedules with their last runs). */
  list: LoadResult;
  /** GET …/schedules/{id}. */
  one: LoadResult;
  peakRss: number;
}

export interface ScaleBenchOptions {
  sizes: number[];
  duration: number;
  connections: number;
  progress: (text: string) => void;
}

const BATCH = 50;
/** Load runs per read; the median one is reported. */
const RUNS = 3;

/**
 * Issue 7, item 2: grows the store to each size in turn (schedules across workspaces, 10
 * per workspace), then times the scheduler's tick in this process and the API's schedule
 * reads on the real server, which is stopped while seeding so the two never compete.
 */
export async function scaleBench(kind: StoreKind, opts: ScaleBenchOptions): Promise<ScaleRow[]> {
  const location = await freshStore(kind);
  const serverOpts = { apiKey: newKeyText('bench'), configFile: writeQuotaFreeConfig(location.dataDir) };
  const open = () => openStore({ dataDir: location.dataDir, databaseUrl: location.databaseUrl });
  let store: Store | undefined;
  const rows: ScaleRow[] = [];
  try {
    // The first start migrates the store and creates the organisation the key belongs to.
    await (await startServer(location, serverOpts)).stop();
    store = await open();
    const ctx: SeedContext = {
      db: store.db,
      firstOrgId: (
        await store.db
          .selectFrom('organisations')
          .select('id')
          .where('name_key', '=', 'default')
          .executeTakeFirstOrThrow()
      ).id,
      providerId: (
        await store.db
          .selectFrom('cloud_providers')
          .select('id')
          .where('type', '=', 'public')
          .where('platform', '=', 'aws')
          .where('region', '=', 'us-east-1')
          .executeTakeFirstOrThrow()
      ).id,
      now: Date.now(),
    };
    const perBlock = WORKSPACES_PER_BLOCK * SCHEDULES_PER_WORKSPACE;
    const block0: SeededWorkspace[] = [];
    let blocks = 0;
    for (const size of opts.sizes) {
      const target = Math.max(1, Math.round(size / perBlock));
      opts.progress(`${kind}: seeding to ${(target * perBlock).toLocaleString('en')} schedules`);
      ctx.db = store.db;
      block0.push(...(await seedBlocks(ctx, blocks, target)));
      blocks = target;
      // PostgreSQL's autovacuum would have analysed tables this size by now; do it at once.
      if (kind === 'postgres') await sql`analyze`.execute(store.db);

      opts.progress(`${kind}: scheduler ticks at ${(blocks * perBlock).toLocaleString('en')} schedules`);
      const ticks = await measureTicks(
        store,
        ctx.now,
        block0.slice(0, BATCH).map((w) => w.scheduleIds[0]!),
      );
      await store.close();
      store = undefined;

      opts.progress(`${kind}: API reads at ${(blocks * perBlock).toLocaleString('en')} schedules`);
      const reads = await measureReads(location, serverOpts, block0[3]!, opts);
      rows.push({
        store: kind,
        schedules: blocks * perBlock,
        workspaces: blocks * WORKSPACES_PER_BLOCK,
        ticks,
        ...reads,
      });
      store = await open();
    }
  } finally {
    await store?.close();
    await location.dispose();
  }
  return rows;
}

/** The schedule reads of one workspace of block 0, on the server started on the store as it now is. */
async function measureReads(
  location: StoreLocation,
  serverOpts: { apiKey: string; configFile: string },
  probe: SeededWorkspace,
  opts: ScaleBenchOptions,
) {
  const server = await startServer(location, serverOpts);
  try {
    const base = `${server.url}${API_PREFIX}/workgroups/${probe.workgroupId}/workspaces/${probe.workspaceId}/schedules`;
    const run = {
      headers: { 'x-api-key': serverOpts.apiKey },
      duration: opts.duration,
      connections: opts.connections,
      warmup: 1,
    };
    server.resetPeakRss();
    const list = await loadMedian({ url: base, ...run }, RUNS);
    const one = await loadMedian({ url: `${base}/${probe.scheduleIds[4]}`, ...run }, RUNS);
    return { list, one, peakRss: server.peakRss() };
  } finally {
    await server.stop();
  }
}
