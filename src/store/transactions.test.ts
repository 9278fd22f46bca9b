import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStore, type StoreLocation } from '../../test/helpers/store-location.js';
import { readManualClock } from './repositories/manual-clock.js';
import { isConnectionLoss, openStore, type Store } from './store.js';

const pgAdminUrl = process.env.ACACIA_TEST_DATABASE_URL;

/** The shared transaction of withinTransaction, on the store the suite runs on. */
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

  const setClock = (now: number) =>
    store.db
      .insertInto('manual_clock')
      .values({ id: 1, now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ now }))
      .execute();

  it('commits the work of db and transaction() inside it together, and runs afterCommit callbacks after', async () => {
    const events: string[] = [];
    await store.withinTransaction(async () => {
      await setClock(10);
      await store.transaction(async (trx) => {
        await trx.updateTable('manual_clock').set({ now: 11 }).execute();
      });
      store.afterCommit(() => events.push('after commit'));
      events.push('end of work');
    });
    assert.deepEqual(events, ['end of work', 'after commit']);
    assert.equal(await readManualClock(store.db), 11);
  });

  it('rolls all of it back when the work fails, and runs no afterCommit callback', async () => {
    let called = false;
    await assert.rejects(
      store.withinTransaction(async () => {
        await setClock(20);
        store.afterCommit(() => (called = true));
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.equal(await readManualClock(store.db), 11);
    assert.equal(called, false);
  });

  it('undoes only a nested transaction that failed, so the work may go on after it', async () => {
    await store.withinTransaction(async () => {
      await setClock(30);
      await assert.rejects(
        store.transaction(async (trx) => {
          await trx.updateTable('manual_clock').set({ now: 31 }).execute();
          // A statement the database refuses: on PostgreSQL it spoils the whole transaction
          // unless the savepoint around it is rolled back.
          await trx.insertInto('manual_clock').values({ id: 1, now: 32 }).execute();
        }),
      );
      assert.equal(await readManualClock(store.db), 30);
      await store.db.updateTable('manual_clock').set({ now: 33 }).execute();
    });
    assert.equal(await readManualClock(store.db), 33);
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
