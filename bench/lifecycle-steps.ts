import { performance } from 'node:perf_hooks';
import { AcaciaClient, resultOf, type WorkspaceRecord } from '../src/client/index.js';
import { newKeyText, publicProvider } from '../test/helpers/server.js';
import { startServer } from './server-process.js';
import { quantile } from './stats.js';
import { freshStore, type StoreKind } from './store-location.js';

export interface StepRow {
  store: StoreKind;
  step: string;
  runs: number;
  p50: number;
  max: number;
}

const steps = ['create → Active', 'pause → Stopped', 'resume → Active', 'resize → Active', 'delete → gone'] as const;

/**
 * What a developer's CI sees of the stand-in: wall time of each lifecycle step, from the
 * request until polling shows the target state, with ACACIA_SIM_SPEED=0 and the manual clock
 * (nothing waits on simulated durations; the engine runs each step on its next tick).
 */
export async function lifecycleSteps(
  kind: StoreKind,
  opts: { runs: number; progress: (t: string) => void },
): Promise<StepRow[]> {
  const store = await freshStore(kind);
  const apiKey = newKeyText('bench');
  const server = await startServer(store, { apiKey, env: { ACACIA_CLOCK: 'manual' } });
  const times = new Map<string, number[]>(steps.map((s) => [s, []]));
  try {
    const c = new AcaciaClient({ baseUrl: server.url, apiKey });
    const provider = await publicProvider(c);
    const wg = resultOf(
      await c.workgroups.create({ cloud_provider_id: provider, name: 'lifecycle-bench' }),
    ).workgroup_id;
    opts.progress(`${kind}: lifecycle steps, ${opts.runs} runs`);
    for (let i = 0; i < opts.runs; i++) {
      const timed = async (
        step: (typeof steps)[number],
        act: () => Promise<unknown>,
        done: (w: WorkspaceRecord | undefined) => boolean,
        ws: () => string,
      ) => {
        const start = performance.now();
        await act();
        for (let polls = 0; ; polls++) {
          const res = await c.workspaces.get(wg, ws());
          if (done(res.status === 200 ? resultOf(res) : undefined)) break;
          if (polls > 2000) throw new Error(`${step} did not finish`);
        }
        times.get(step)!.push(performance.now() - start);
      };
      let id = '';
      await timed(
        'create → Active',
        async () => (id = resultOf(await c.workspaces.create(wg, { name: `ws-${i}` })).workspace_id!),
        (w) => w?.status === 'Active',
        () => id,
      );
      await timed(
        'pause → Stopped',
        () => c.workspaces.pause(wg, id),
        (w) => w?.status === 'Stopped',
        () => id,
      );
      await timed(
        'resume → Active',
        () => c.workspaces.resume(wg, id),
        (w) => w?.status === 'Active',
        () => id,
      );
      await timed(
        'resize → Active',
        () => c.workspaces.update(wg, id, { workspace_type_name: 'TG-0' }),
        (w) => w?.status === 'Active' && w.workspace_type?.typeName === 'TG-0',
        () => id,
      );
      await timed(
        'delete → gone',
        () => c.workspaces.delete(wg, id),
        (w) => w === undefined,
        () => id,
      );
    }
  } finally {
    await server.stop();
    await store.dispose();
  }
  return steps.map((step) => {
    const samples = times.get(step)!;
    return { store: kind, step, runs: samples.length, p50: quantile(samples, 0.5), max: Math.max(...samples) };
  });
}
