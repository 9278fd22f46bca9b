import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratchStores } from '../../../test/helpers/scratch-stores.js';
import { DataPlaneError } from '../errors.js';
import type { GraphStore } from '../graph-store.js';
import { runGsql } from '../gsql-runner.js';
import { planUpsert } from '../upsert-plan.js';
import { writeUpsert } from '../upsert-write.js';
import { writingRows } from './graph-view.js';
import { compiledQuery, runCompiled, runPausing } from './lifecycle.js';
import type { Run } from './runtime.js';

/**
 * A run that lets other requests in (Run.pause) gives what a run to its end gives, whatever
 * its statements were doing when it paused, and what happens while it pauses is not lost.
 * Runs here pause at every deadline check (every 1,024 steps), not every 20 ms.
 */

const stores = scratchStores('pausing');

const schema = `CREATE VERTEX P (PRIMARY_ID id STRING, score INT)
CREATE DIRECTED EDGE E (FROM P, TO P)
CREATE GRAPH g (*)`;

const N = 60;

function open(): GraphStore {
  const store = stores.open(schema);
  const vertices = Object.fromEntries(Array.from({ length: N }, (_, i) => [`v${i}`, { score: { value: i } }]));
  const edges = Object.fromEntries(
    Array.from({ length: N }, (_, i) => [
      `v${i}`,
      { E: { P: { [`v${(i * 7 + 1) % N}`]: {}, [`v${(i + 1) % N}`]: {} } } },
    ]),
  );
  writeUpsert(store, planUpsert(store, store.graph('g', '/'), { vertices: { P: vertices }, edges: { P: edges } }));
  return store;
}

function install(store: GraphStore, text: string, name: string) {
  const r = runGsql(store, `USE GRAPH g\n${text}\nINSTALL QUERY ${name}`);
  assert.ok(r.ok, r.output);
  return compiledQuery(store, store.graph('g', '/'), name)!;
}

/** Control flow of every kind around the places a run pauses: blocks, loops, BREAK, CONTINUE, TRY. */
const flow = `CREATE QUERY flow(INT rounds) FOR GRAPH g {
  EXCEPTION odd (40001);
  SumAccum<INT> @@steps, @@caught, @@hops;
  ListAccum<INT> @@trail;
  SumAccum<INT> @seen;
  INT i = 0;
  WHILE TRUE DO
    i = i + 1;
    IF i > rounds THEN BREAK; END;
    IF i % 2 == 0 THEN CONTINUE; END;
    @@steps += 1;
    FOREACH k IN RANGE[1, 3] DO
      CASE WHEN k == 2 THEN CONTINUE; END;
      @@steps += k;
    END;
    TRY
      IF i % 500 == 1 THEN
        # Long enough to pause in: the exception comes after the pause.
        FOREACH j IN RANGE[1, 3000] DO @@steps += 1; END;
        RAISE odd("at " + to_string(i));
      END;
    EXCEPTION
      WHEN odd THEN @@caught += 1; @@trail += i;
    END;
  END;
  all = {P.*};
  FOREACH r IN RANGE[1, 30] DO
    all = SELECT t FROM all:s -(E:e)-> P:t ACCUM t.@seen += 1, @@hops += 1;
  END;
  FOREACH x IN @@trail DO @@steps += x; END;
  PRINT @@steps, @@caught, @@hops, @@trail;
}`;

/** A query that loops long enough to pause, then sets the score of the vertices `where` holds for. */
const slowWrite = (name: string, where: string, score: number) => `CREATE QUERY ${name}() FOR GRAPH g {
  INT i = 0;
  WHILE i < 20000 DO i = i + 1; END;
  all = {P.*};
  all = SELECT s FROM all:s WHERE ${where} POST-ACCUM s.score = ${score};
}`;

const pausing = (store: GraphStore, q: ReturnType<typeof install>, params: Record<string, unknown>) => {
  let run!: Run;
  const outcome = runPausing(store, q, params, {}, (r) => {
    run = r;
    r.allowPauses(0);
  });
  return { outcome, run: () => run };
};

describe('runs that let other requests in', () => {
  it('give what a run to its end gives, pausing in loops, blocks and TRY alike', async () => {
    const store = open();
    const q = install(store, flow, 'flow');
    const whole = runCompiled(store, q, { rounds: 6000 });
    const paused = pausing(store, q, { rounds: 6000 });
    const { results } = await paused.outcome;
    assert.deepEqual(results, whole.results);
    assert.ok(paused.run().pauses >= 8, `paused ${paused.run().pauses} times`);
    assert.deepEqual(results[0]!['@@caught'], 12);
  });

  it('stops when the schema changes while it pauses, writing nothing', async () => {
    const store = open();
    const q = install(store, slowWrite('slow_write', 'TRUE', 0), 'slow_write');
    const paused = pausing(store, q, {});
    // The run is paused now: its first slice ended at its first deadline check.
    assert.ok(runGsql(store, 'CREATE VERTEX Q (PRIMARY_ID id STRING)').ok);
    await assert.rejects(
      paused.outcome,
      (err: unknown) =>
        err instanceof DataPlaneError && err.kind === 'queryAborted' && /schema or the store changed/.test(err.message),
    );
    const scores = store.db.prepare("SELECT json_extract(attrs, '$.score') FROM vertices").pluck().all() as number[];
    assert.equal(
      scores.reduce((a, b) => a + b, 0),
      (N * (N - 1)) / 2,
    );
  });

  it('keeps both its writes and the upserts made while it paused, for the next query to read', async () => {
    const store = open();
    const q = install(store, slowWrite('bump', 's.id == "v1"', 1000), 'bump');
    const read = install(
      store,
      `CREATE QUERY scores() FOR GRAPH g {
  SumAccum<INT> @@total;
  all = {P.*};
  all = SELECT s FROM all:s ACCUM @@total += s.score;
  PRINT @@total;
}`,
      'scores',
    );
    const before = runCompiled(store, read, {}).results[0]!['@@total'] as number;
    const paused = pausing(store, q, {});
    // An upsert while the run pauses, as REST++ makes one: v2's score from 2 to 502.
    const plan = planUpsert(store, store.graph('g', '/'), { vertices: { P: { v2: { score: { value: 502 } } } } });
    writingRows(store, (touched) => {
      touched?.rows(plan);
      return writeUpsert(store, plan);
    });
    await paused.outcome;
    assert.ok(paused.run().pauses >= 1);
    // v1: 1 → 1000 (the run), v2: 2 → 502 (the upsert).
    assert.equal(runCompiled(store, read, {}).results[0]!['@@total'], before + 999 + 500);
  });

  it('stops at its next check once asked to, while it pauses', async () => {
    const store = open();
    const q = install(store, `CREATE QUERY spin() FOR GRAPH g { WHILE TRUE DO END; }`, 'spin');
    const paused = pausing(store, q, {});
    paused.run().stopReason = 'The query was aborted (abortquery).';
    await assert.rejects(
      paused.outcome,
      (err: unknown) => err instanceof DataPlaneError && err.kind === 'queryAborted' && /abortquery/.test(err.message),
    );
  });
});
