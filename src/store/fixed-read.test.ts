import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStore, type StoreLocation } from '../../test/helpers/store-location.js';
import { fixedRead } from './fixed-read.js';
import { statementsRun } from './statement-tally.js';
import { openStore, type Executor, type Store } from './store.js';

const pgAdminUrl = process.env.ACACIA_TEST_DATABASE_URL;
const sqlite = !pgAdminUrl;

const clockRead = fixedRead('acacia_test_clock', (db, v) =>
  db.selectFrom('manual_clock').select(['id', 'now']).where('id', '=', v(0)),
);
const rememberedClockRead = fixedRead(
  'acacia_test_clock_remembered',
  (db, v) => db.selectFrom('manual_clock').select(['id', 'now']).where('id', '=', v(0)),
  { remember: true },
);

/** Lets the event loop turn: what reads of committed data need to see another connection's commit. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const setClock = (db: Executor, now: number) =>
  db
    .insertInto('manual_clock')
    .values({ id: 1, now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ now }))
    .execute();

describe(`fixed reads (${sqlite ? 'sqlite' : 'postgres'})`, () => {
  let location: StoreLocation;
  let store: Store;
  /** Another connection to the same store, as another process would hold. */
  let other: Store;

  before(async () => {
    location = await createStore(pgAdminUrl, 'acacia-fixed-read');
    store = await openStore({ dataDir: location.dataDir, databaseUrl: location.databaseUrl });
    other = await openStore({ dataDir: location.dataDir, databaseUrl: location.databaseUrl });
    await setClock(store.db, 100);
  });
  after(async () => {
    await other.close();
    await store.close();
    await location.dispose();
  });

  it('reads the latest commit each time', async () => {
    assert.equal((await clockRead.first(store, 1))?.now, 100);
    await setClock(other.db, 101);
    assert.equal((await clockRead.first(store, 1))?.now, 101);
    await setClock(store.db, 100);
  });

  it('remembers a row until any connection commits, and never hands out a stale one', async () => {
    const first = await rememberedClockRead.first(store, 1);
    assert.equal(first?.now, 100);
    const before = statementsRun();
    const again = await rememberedClockRead.first(store, 1);
    assert.deepEqual(again, first);
    // SQLite answers from memory while nothing changed; PostgreSQL reads every time.
    assert.equal(statementsRun() - before, sqlite ? 0 : 1);
    // Shared between callers, so no caller may change it.
    if (sqlite) assert.throws(() => ((again as { now: number }).now = 7), TypeError);

    // A commit through this process's own writer counts at once; one through another
    // connection (as another process's) from the next turn of the event loop.
    await setClock(store.db, 102);
    assert.equal((await rememberedClockRead.first(store, 1))?.now, 102);
    await setClock(other.db, 103);
    await nextTurn();
    assert.equal((await rememberedClockRead.first(store, 1))?.now, 103);
    assert.deepEqual(await rememberedClockRead.all(store, 1), [{ id: 1, now: 103 }]);
    // What is absent is remembered as absent, until a commit adds it.
    assert.equal(await rememberedClockRead.first(store, 2), undefined);
    await other.db.insertInto('manual_clock').values({ id: 2, now: 5 }).execute();
    await nextTurn();
    assert.equal((await rememberedClockRead.first(store, 2))?.now, 5);
  });
});
