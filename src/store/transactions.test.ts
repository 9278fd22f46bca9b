import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStore, type StoreLocation } from '../../test/helpers/store-location.js';
import { readManualClock } from './repositories/manual-clock.js';
import { dialectOf, isConnectionLoss, openStore, type Executor, type NotedChange, type Store } from './store.js';

const pgAdminUrl = process.env.ACACIA_TEST_DATABASE_URL;

/** The unit of work of a transaction, on the store the suite runs on. */
describe(`store transactions (${pgAdminUrl ? 'postgres' : 'sqlite'})`, () => {
  let location: StoreLocation;
  let store: Store;

  before(async () => {
    location = await createStore(pgAdminUrl, 'acacia-trx');
    store = await openStore({ dataDir: location.dataDir, databaseUrl: location.databaseUrl });
  });
  after(async () => {
    await store.close();
    await location.dispose();
  });

  const setClock = (db: Executor, now: number) =>
    db
      .insertInto('manual_clock')
      .values({ id: 1, now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ now }))
      .execute();

  it('commits the work of the unit and its savepoints together, and runs afterCommit callbacks after', async () => {
    const events: string[] = [];
    await store.transaction(async (tx) => {
      await setClock(tx.db, 10);
      await store.unit(tx, async (inner) => {
        assert.equal(inner, tx);
        await inner.db.updateTable('manual_clock').set({ now: 11 }).execute();
      });
      tx.afterCommit(() => events.push('after commit'));
      events.push('end of work');
    });
    assert.deepEqual(events, ['end of work', 'after commit']);
    assert.equal(await readManualClock(store.db), 11);
  });

  it('rolls all of it back when the work fails, and runs no afterCommit callback', async () => {
    let called = false;
    await assert.rejects(
      store.transaction(async (tx) => {
        await setClock(tx.db, 20);
        tx.afterCommit(() => (called = true));
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.equal(await readManualClock(store.db), 11);
    assert.equal(called, false);
  });

  it('undoes only a nested savepoint that failed, and its noted changes, so the work may go on after it', async () => {
    let noted: readonly NotedChange[] = [];
    store.recordEventsWith(async (_tx, changes) => {
      noted = changes;
      return 0;
    });
    try {
      await store.transaction(async (tx) => {
        await setClock(tx.db, 30);
        tx.noteChange({ kind: 'workspace', id: 'kept', change: 'updated' });
        await assert.rejects(
          tx.savepoint(async (inner) => {
            await inner.db.updateTable('manual_clock').set({ now: 31 }).execute();
            inner.noteChange({ kind: 'workspace', id: 'undone', change: 'updated' });
            // A statement the database refuses: on PostgreSQL it spoils the whole transaction
            // unless the savepoint around it is rolled back.
            await inner.db.insertInto('manual_clock').values({ id: 1, now: 32 }).execute();
          }),
        );
        assert.equal(await readManualClock(tx.db), 30);
        await tx.db.updateTable('manual_clock').set({ now: 33 }).execute();
      });
    } finally {
      store.recordEventsWith(async () => 0);
    }
    assert.equal(await readManualClock(store.db), 33);
    assert.deepEqual(
      noted.map((c) => c.id),
      ['kept'],
    );
  });

  it("keeps a record offered until a later change of the same resource, and each unit's offers its own", async () => {
    await store.transaction(async (tx) => {
      tx.offerRecord('workspace', 'w1', { v: 1 });
      assert.deepEqual(tx.offeredRecord('workspace', 'w1'), { v: 1 });
      tx.noteChange({ kind: 'workspace', id: 'w1', change: 'updated' });
      assert.equal(tx.offeredRecord('workspace', 'w1'), undefined);
    });
    await store.transaction(async (tx) => assert.equal(tx.offeredRecord('workspace', 'w1'), undefined));
  });

  it('knows the dialect of the database and of each unit of work', async () => {
    const expected = pgAdminUrl ? 'postgres' : 'sqlite';
    assert.equal(store.dialect, expected);
    assert.equal(dialectOf(store.db), expected);
    await store.transaction(async (tx) => {
      assert.equal(tx.dialect, expected);
      assert.equal(dialectOf(tx.db), expected);
    });
  });

  it('tells a lost connection from a refused statement', () => {
    assert.ok(isConnectionLoss(Object.assign(new Error('terminating connection'), { code: '57P01' })));
    assert.ok(isConnectionLoss(Object.assign(new Error('connection failure'), { code: '08006' })));
    assert.ok(isConnectionLoss(new Error('Connection terminated unexpectedly')));
    assert.ok(isConnectionLoss(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })));
    assert.ok(!isConnectionLoss(Object.assign(new Error('duplicate key'), { code: '23505' })));
    assert.ok(
      !isConnectionLoss(Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })),
    );
  });
});
