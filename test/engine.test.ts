import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { pino } from 'pino';
import { ManualClock } from '../src/domain/clock.js';
import type { AnyKind, OperationKind } from '../src/engine/kinds/index.js';
import { Worker } from '../src/engine/worker.js';
import { claimDueOperations, findOperationById, insertOperation } from '../src/store/repositories/operations.js';
import { insertOrganisation } from '../src/store/repositories/organisations.js';
import { openStore, type Store } from '../src/store/store.js';
import { freshStore, storeName, type StoreLocation } from './helpers/server.js';

// The worker against the real store: leases, reclaiming a dead worker's operation, and
// several workers sharing a queue. On PostgreSQL each worker has its own connection pool, as
// separate processes have; SQLite's scale is one process (better-sqlite3 waits for a lock
// synchronously, so two connections in one process would block each other), so there the
// workers share one.
describe(`operations worker (${storeName})`, () => {
  let location: StoreLocation;
  let stores: Store[];
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const logger = pino({ level: 'silent' });
  const orgId = randomUUID();
  const runs: string[] = [];

  const Params = Type.Object(
    {
      fail: Type.Optional(Type.Boolean()),
      breakComplete: Type.Optional(Type.Boolean()),
      terminal: Type.Optional(Type.Boolean()),
      untilStopped: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  );
  /** What the kind's fail() was told: operation id and the parameters it was given. */
  const failures: Array<{ id: string; params: unknown; message: string }> = [];
  const handler: OperationKind<typeof Params> = {
    kind: 'test.step',
    params: Params,
    run: async (op, { signal }) => {
      runs.push(op.id);
      if (op.params.fail) throw new Error('boom');
      if (op.params.terminal) return { kind: 'failed', reason: 'cannot ever be done' };
      if (op.params.untilStopped)
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      return { kind: 'done', observed: {} };
    },
    complete: async (_trx, op) => {
      if (op.params.breakComplete) throw new Error('cannot apply');
    },
    fail: async (_trx, op, params, message) => {
      failures.push({ id: op.id, params, message });
    },
  };
  const worker = (store: Store, owner: string, stopping?: AbortSignal, leaseMs = 30_000) =>
    new Worker(
      store,
      clock,
      new Map([[handler.kind, handler as AnyKind]]),
      logger,
      {
        owner,
        leaseMs,
        batch: 10,
        backoffMs: () => 5_000,
      },
      stopping,
    );

  const enqueue = async (params: Record<string, unknown> = {}) => {
    const id = randomUUID();
    await stores[0]!.transaction((tx) =>
      insertOperation(tx, {
        id,
        org_id: orgId,
        resource_type: 'test',
        resource_id: id,
        kind: 'test.step',
        params,
        max_attempts: 3,
        run_at: clock.now(),
        created_at: clock.now(),
      }),
    );
    return id;
  };

  before(async () => {
    location = await freshStore();
    const options = {
      dataDir: location.dataDir,
      ...(location.databaseUrl ? { databaseUrl: location.databaseUrl } : {}),
    };
    const first = await openStore(options);
    stores = [first, first.dialect === 'postgres' ? await openStore(options) : first];
    await insertOrganisation(stores[0]!.db, {
      id: orgId,
      name: 'engine-test',
      tier: 'enterprise',
      created_at: clock.now(),
    });
  });
  after(async () => {
    for (const s of new Set(stores)) await s.close();
    await location.dispose();
  });

  it('reclaims an operation whose worker died holding the lease, once the lease expires', async () => {
    const id = await enqueue();
    const dead = await stores[0]!.transaction((trx) =>
      claimDueOperations(trx.db, 'dead-worker', clock.now(), 30_000, 10),
    );
    assert.deepEqual(
      dead.map((o) => o.id),
      [id],
    );

    const survivor = worker(stores[1]!, 'survivor');
    assert.equal(await survivor.tick(), 0, 'a live lease is respected');
    clock.advance(30_001);
    assert.equal(await survivor.tick(), 1);
    const op = (await findOperationById(stores[0]!.db, id))!;
    assert.equal(op.state, 'succeeded');
    assert.equal(op.lease_owner, null);
    assert.equal(op.attempt, 2, "the dead worker's claim counts as an attempt");
  });

  it('retries a failing step with back-off and fails it after max_attempts', async () => {
    const id = await enqueue({ fail: true });
    const w = worker(stores[0]!, 'retrier');
    assert.equal(await w.tick(), 1);
    let op = (await findOperationById(stores[0]!.db, id))!;
    assert.equal(op.state, 'pending');
    assert.equal(op.error, 'boom');
    assert.equal(op.run_at, clock.now() + 5_000);
    assert.equal(await w.tick(), 0, 'not before the back-off');
    clock.advance(5_000);
    await w.tick();
    clock.advance(5_000);
    await w.tick();
    op = (await findOperationById(stores[0]!.db, id))!;
    assert.equal(op.state, 'failed');
    assert.equal(op.attempt, 3);
    assert.ok(op.finished_at);
  });

  it('counts a failure to apply the result as a failed attempt, and still runs the rest of the batch', async () => {
    const broken = await enqueue({ breakComplete: true });
    const fine = await enqueue();
    const w = worker(stores[0]!, 'applier');
    assert.equal(await w.tick(), 2);
    const failed = (await findOperationById(stores[0]!.db, broken))!;
    assert.deepEqual([failed.state, failed.error, failed.lease_owner], ['pending', 'cannot apply', null]);
    assert.equal(failed.run_at, clock.now() + 5_000, 'retried after the back-off');
    assert.equal((await findOperationById(stores[0]!.db, fine))!.state, 'succeeded');
  });

  it('fails an operation whose stored parameters do not fit its kind at once, without running it', async () => {
    runs.length = 0;
    const id = await enqueue({ fail: 'yes', extra: 1 });
    assert.equal(await worker(stores[0]!, 'checker').tick(), 1);
    const op = (await findOperationById(stores[0]!.db, id))!;
    assert.deepEqual([op.state, op.attempt], ['failed', 1], 'no retry: the parameters will not change');
    assert.match(op.error!, /^the operation's parameters do not fit test\.step \(\/\S+: /);
    assert.deepEqual(runs, [], 'the step never ran');
    assert.deepEqual(
      failures.find((f) => f.id === id),
      { id, params: undefined, message: op.error },
      'the kind records the failure, told the parameters are unusable',
    );
  });

  it('records a terminal failure of a step at once, without retrying it', async () => {
    const id = await enqueue({ terminal: true });
    assert.equal(await worker(stores[0]!, 'terminal').tick(), 1);
    const op = (await findOperationById(stores[0]!.db, id))!;
    assert.deepEqual([op.state, op.attempt, op.error], ['failed', 1, 'cannot ever be done']);
    assert.deepEqual(failures.find((f) => f.id === id)?.params, { terminal: true });
  });

  it('gives a step cut short by the engine stopping back, due at once and its attempt not counted', async () => {
    const id = await enqueue({ untilStopped: true });
    const stop = new AbortController();
    const ticking = worker(stores[0]!, 'stopping', stop.signal).tick();
    while (!runs.includes(id)) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    assert.equal(await ticking, 1);
    const op = (await findOperationById(stores[0]!.db, id))!;
    assert.deepEqual([op.state, op.attempt, op.run_at, op.lease_owner], ['pending', 0, clock.now(), null]);
    assert.equal(await worker(stores[0]!, 'stopped', stop.signal).tick(), 0, 'a stopped worker claims nothing');
    await stores[0]!.db.deleteFrom('operations').where('id', '=', id).execute();
  });

  it('aborts a step that runs as long as its lease, and retries it like any failed attempt', async () => {
    const id = await enqueue({ untilStopped: true });
    assert.equal(await worker(stores[0]!, 'slow-step', undefined, 50).tick(), 1);
    const op = (await findOperationById(stores[0]!.db, id))!;
    assert.deepEqual(
      [op.state, op.attempt, op.error, op.run_at],
      ['pending', 1, 'the lease on the operation ran out', clock.now() + 5_000],
    );
    await stores[0]!.db.deleteFrom('operations').where('id', '=', id).execute();
  });

  it('lets two workers drain one queue with every operation run exactly once', async () => {
    runs.length = 0;
    const ids = new Set<string>();
    for (let i = 0; i < 60; i++) ids.add(await enqueue());
    const a = worker(stores[0]!, 'worker-a');
    const b = worker(stores[1]!, 'worker-b');
    const drain = async (w: Worker) => {
      while ((await w.tick()) > 0);
    };
    await Promise.all([drain(a), drain(b)]);
    assert.equal(runs.length, 60);
    assert.deepEqual(new Set(runs), ids);
    for (const id of ids) assert.equal((await findOperationById(stores[0]!.db, id))!.state, 'succeeded');
  });
});
