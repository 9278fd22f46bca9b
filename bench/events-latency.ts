/**
 * Cross-process delivery latency of the event stream, on both stores: two `acacia serve`
 * processes share one store; a stream is open on B while A takes `ROUNDS` writes (a
 * workgroup rename each). For every write it records how long after the write was sent
 * its event reached the stream on B (an upper bound on delivery: it includes A's request),
 * and A's request time alone, for comparison.
 *
 *   node --import tsx bench/events-latency.ts [sqlite|postgres …]   (default: both)
 */
import { randomBytes } from 'node:crypto';
import { AcaciaClient, resultOf } from '../src/client/index.js';
import { openEventStream } from '../test/helpers/event-stream.js';
import { startServer } from './server-process.js';
import { quantile } from './stats.js';
import { freshStore, type StoreKind } from './store-location.js';

const ROUNDS = Number(process.env.ROUNDS ?? 200);

async function measure(kind: StoreKind): Promise<void> {
  const store = await freshStore(kind);
  const apiKey = `acacia_sk_bench_${randomBytes(24).toString('hex')}`;
  const a = await startServer(store, { apiKey });
  const b = await startServer(store, { apiKey });
  try {
    const client = new AcaciaClient({ baseUrl: a.url, apiKey });
    const provider = resultOf(await client.cloudProviders.list()).find((p) => p.status === 'Active')!;
    const wg = resultOf(await client.workgroups.create({ cloud_provider_id: provider.id! })).workgroup_id!;
    const stream = await openEventStream(b.url, apiKey, { query: { resource_id: wg, type: 'workgroup.updated' } });
    const delivery: number[] = [];
    const request: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      const arrived = stream.until((s) => s.events.length > i, 30_000).then(() => performance.now());
      resultOf(await client.workgroups.update(wg, { workgroup_name: `latency-${i}` }));
      request.push(performance.now() - t0);
      delivery.push((await arrived) - t0);
    }
    stream.close();
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    process.stdout.write(
      `${kind}: ${ROUNDS} events written through one process, read on another: ` +
        `delivery p50 ${ms(quantile(delivery, 0.5))}, p99 ${ms(quantile(delivery, 0.99))}; ` +
        `the write request alone p50 ${ms(quantile(request, 0.5))}, p99 ${ms(quantile(request, 0.99))}\n`,
    );
  } finally {
    await a.stop();
    await b.stop();
    await store.dispose();
  }
}

const kinds = (process.argv.slice(2).length ? process.argv.slice(2) : ['sqlite', 'postgres']) as StoreKind[];
for (const kind of kinds) await measure(kind);
