import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { withStatementTally, type StatementTally } from '../src/store/statement-tally.js';
import { startTestServer, storeName, type TestServer } from './helpers/server.js';
import { activeWorkspace, newWorkgroup } from './helpers/workspaces.js';

// An engine with nothing due asks the store one question per tick (the earliest due time of
// everything it does) rather than running every part's due query and the worker's claiming
// transaction: an idle server costs its store one cheap statement per poll.
describe(`an idle engine (${storeName})`, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ACACIA_SIM_SPEED: '0' });
  });
  after(() => server.close());

  it('runs one statement per tick while nothing is due', async () => {
    const engine = server.running.engine;
    // The first pass of the time-kept work (purges, observation) has run by now.
    await engine.tick();
    const tally: StatementTally = { statements: 0, ms: 0 };
    for (let i = 0; i < 10; i++) await withStatementTally(tally, () => engine.tick());
    assert.equal(tally.statements, 10);
  });

  it('still runs what becomes due: a workspace created while idle becomes Active', async () => {
    const c = server.client;
    const engine = server.running.engine;
    const tally: StatementTally = { statements: 0, ms: 0 };
    const wg = await newWorkgroup(c);
    const ws = await activeWorkspace(c, wg, { name: 'woken' });
    assert.equal(ws.status, 'Active');
    await withStatementTally(tally, () => engine.tick());
    assert.equal(tally.statements, 1, 'idle again once the creation is done');
  });
});
