import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { apiBench, type ApiRow } from './api-bench.js';
import { startBaseline } from './baseline.js';
import { scaleBench, type ScaleRow } from './scale-bench.js';
import { postgresVersion, type StoreKind } from './store-location.js';
import { lifecycleSteps, type StepRow } from './lifecycle-steps.js';
import { mixedBench, type MixedRow } from './mixed-bench.js';
import { idleBench, type IdleRow } from './idle-bench.js';
import { apiTable, idleTable, mixedTable, scaleTable, stepsTable } from './table.js';

const usage = `npm run bench [-- options]

  --stores sqlite,postgres   stores to measure (default both; PostgreSQL from ACACIA_BENCH_DATABASE_URL,
                             default postgres://postgres@127.0.0.1:5432/postgres, a fresh database per run)
  --only api|mixed|idle|scale|lifecycle   run one of the benchmarks
  --compare <dir>            another checkout (dependencies installed) whose server also runs the
                             mixed workload, in the same run, for a before/after comparison
  --duration <s>             seconds per load run (default 5; the scale benchmark's reads take the
                             median of three runs of at most 2 s)
  --connections <n>          concurrent connections per load run (default 10)
  --workspaces <n>           workspaces the organisation of scenario (d) ends with (default 5000)
  --sizes <n,n,…>            schedule counts of the scale benchmark (default 1000,10000,100000)
`;

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'sqlite,postgres' },
    only: { type: 'string' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    workspaces: { type: 'string', default: '5000' },
    sizes: { type: 'string', default: '1000,10000,100000' },
    compare: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}

const stores = values.stores.split(',').map((s) => s.trim()) as StoreKind[];
if (stores.some((s) => s !== 'sqlite' && s !== 'postgres'))
  throw new Error(`--stores takes sqlite and/or postgres, not ${values.stores}`);
const parts = ['api', 'mixed', 'idle', 'scale', 'lifecycle'];
if (values.only !== undefined && !parts.includes(values.only))
  throw new Error(`--only takes ${parts.join(', ')}, not ${values.only}`);
const runs = (part: string) => values.only === undefined || values.only === part;
const duration = Number(values.duration);
const connections = Number(values.connections);
const sizes = values.sizes.split(',').map(Number);
const progress = (text: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}`);
const out = (text: string) => process.stdout.write(`${text}\n`);

const started = Date.now();
const pg = stores.includes('postgres') ? await postgresVersion() : undefined;
out(`Acacia benchmarks, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`);
out(
  `machine: ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `Node ${process.version}${pg ? `, PostgreSQL ${pg}` : ''}`,
);
out(
  `load: autocannon, ${connections} connections, ${duration} s per run, loopback; server logs at ` +
    `warn, rate limit off, ACACIA_SIM_SPEED=0; API rows: the median of three runs of Acacia and its ` +
    `references in turn (the minimal server's ratio decides, where it serves the scenario); mixed rows: ` +
    `the median of three rounds, the servers in turn, each on a fresh store`,
);

if (runs('api')) {
  const baseline = await startBaseline();
  const rows: ApiRow[] = [];
  try {
    for (const kind of stores)
      rows.push(
        ...(await apiBench(kind, {
          duration,
          connections,
          orgWorkspaces: Number(values.workspaces),
          baseline,
          progress,
        })),
      );
  } finally {
    await baseline.stop();
  }
  out('\nAPI\n');
  out(apiTable(rows));
}

if (runs('mixed')) {
  const rows: MixedRow[] = [];
  for (const kind of stores)
    rows.push(
      ...(await mixedBench(kind, {
        duration,
        connections,
        progress,
        ...(values.compare ? { compareRoot: values.compare } : {}),
      })),
    );
  out(
    '\nMixed workload (90% reads: one workspace, the workgroup, its allow list; ' +
      '10% writes: metadata PUT, allow-list POST)\n',
  );
  out(mixedTable(rows));
}

if (runs('idle')) {
  const rows: IdleRow[] = [];
  for (const kind of stores) rows.push(await idleBench(kind, { seconds: 30, progress }));
  out('\nIdle (a server holding Active workspaces, nothing due, nobody asking)\n');
  out(idleTable(rows));
}

if (runs('scale')) {
  const rows: ScaleRow[] = [];
  for (const kind of stores)
    rows.push(...(await scaleBench(kind, { sizes, duration: Math.min(duration, 2), connections, progress })));
  out('\nScale\n');
  out(scaleTable(rows));
}

if (runs('lifecycle')) {
  const rows: StepRow[] = [];
  for (const kind of stores) rows.push(...(await lifecycleSteps(kind, { runs: 20, progress })));
  out(
    '\nLifecycle steps (ACACIA_SIM_SPEED=0, manual clock; wall time from the request until a poll shows the state)\n',
  );
  out(stepsTable(rows));
}

out(`\nfinished in ${Math.round((Date.now() - started) / 1000)} s`);
