import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { growthExponent, LINEAR_EXPONENT } from '../../../test/helpers/growth.js';
import { scratchStores } from '../../../test/helpers/scratch-stores.js';
import { checkJob, filePlan } from './job-compile.js';
import { loadFile } from './job-load.js';
import { findJob } from './job-store.js';

const stores = scratchStores('job-growth');

describe('loading jobs that add to collections', () => {
  // Quadratic work would take minutes here: the timeout fails it first.
  it(
    'cost linear time in the lines naming one object, however large its LIST, SET and MAP grow',
    { timeout: 120_000 },
    () => {
      const store = stores.open(`
CREATE VERTEX Bag (PRIMARY_ID id STRING, nums LIST<INT>, tags SET<STRING>, counts MAP<STRING, INT>, text STRING)
CREATE GRAPH g (*)
CREATE LOADING JOB fill FOR GRAPH g {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Bag VALUES ($0, $1, $2, REDUCE(add(($2 -> $1))), REDUCE(add($1)));
}`);
      const job = findJob(store, 'fill')!;
      const plan = filePlan(job, 'f')!;
      let run = 0;
      const exponent = growthExponent((lines) => {
        // Every line names one new vertex of this run.
        const id = `b${run++}`;
        const text = Array.from({ length: lines }, (_, i) => `${id},${i},t${i}`).join('\n');
        const stats = loadFile(store, checkJob(store, job), plan, [text]);
        assert.equal(stats.vertex[0]!.validObject, lines);
      }, 256);
      assert.ok(exponent < LINEAR_EXPONENT, `cost grows as lines^${exponent.toFixed(2)}`);
    },
  );
});
