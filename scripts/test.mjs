// `npm test`: every *.test.ts under src/ and test/ (or the files named on the command line),
// one process per file. First the files that do not time themselves, ACACIA_TEST_CONCURRENCY
// at a time (the number of processors by default); then, one at a time, the files that
// measure CPU or wall time, which other files running beside them would make noisy.
// Run with `node --import tsx`: the test processes inherit the loader, and the console is
// built here, once, before any of them needs it.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { Readable } from 'node:stream';
import { run } from 'node:test';
import reporter from '../test/reporter.mjs';

const root = path.resolve(import.meta.dirname, '..');

/**
 * The files that assert on CPU or wall time. They run alone, after the rest, so that what they
 * measure is their own work: add a file here when it asserts on how long something took.
 */
const ALONE = [
  // Growth exponents of CPU time (test/helpers/growth.ts): cache and memory-bus contention bend them.
  'src/dataplane/graph-store.test.ts',
  'src/dataplane/gsql-split.test.ts',
  'src/dataplane/loading/job-growth.test.ts',
  'src/dataplane/query-params.test.ts',
  'src/gateway/gsql-statements.test.ts',
  'src/gateway/routing.test.ts',
  // How long /healthz waits while heavy work runs in the same server (test/helpers/responsiveness.ts or alike).
  'test/gsql-large-requests.test.ts',
  'test/local-backups.test.ts',
  'test/request-cost.test.ts',
  'test/validation-cost.test.ts',
  // Load against servers that are killed and restarted, with deadlines for settling (test/helpers/load.ts).
  'test/load-kill.test.ts',
  'test/store-connection-loss.test.ts',
  // An event crosses two server processes within two seconds.
  'test/events-multiprocess.test.ts',
];

function concurrency() {
  const given = process.env.ACACIA_TEST_CONCURRENCY;
  if (given === undefined || given === '') return availableParallelism();
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`ACACIA_TEST_CONCURRENCY must be a whole number of at least 1, not "${given}"\n`);
    process.exit(2);
  }
  return n;
}

function testFiles(dir) {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
}

for (const f of ALONE) {
  if (!existsSync(path.join(root, f))) {
    process.stderr.write(`scripts/test.mjs lists ${f} to run alone, but there is no such file\n`);
    process.exit(2);
  }
}

const named = process.argv.slice(2).map((f) => path.relative(root, path.resolve(f)));
const files = (named.length ? named : [...testFiles('src'), ...testFiles('test')]).sort();
const alone = files.filter((f) => ALONE.includes(f));
const together = files.filter((f) => !ALONE.includes(f));

// Built once here rather than by whichever test process gets there first.
if (files.some((f) => readFileSync(path.join(root, f), 'utf8').includes('ensureConsoleBuilt'))) {
  const { ensureConsoleBuilt } = await import('../test/helpers/console-build.ts');
  ensureConsoleBuilt();
}

const n = concurrency();
process.chdir(root);

/** Both batches as one stream of events, so the reporter sums them up once; a failure fails the run. */
async function* events() {
  const batches = [
    { files: together, concurrency: n },
    { files: alone, concurrency: 1 },
  ];
  for (const batch of batches) {
    if (batch.files.length === 0) continue;
    const why = batch === batches[1] ? ', as they time themselves' : '';
    yield {
      type: 'acacia:batch',
      data: { message: `${batch.files.length} files, ${batch.concurrency} at a time${why}` },
    };
    for await (const event of run(batch)) {
      if (event.type === 'test:fail' && !event.data.todo) process.exitCode = 1;
      yield event;
    }
  }
}

Readable.from(reporter(events())).pipe(process.stdout);
