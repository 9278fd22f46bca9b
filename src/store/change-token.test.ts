import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { advanceManualClock, ensureManualClock } from './repositories/manual-clock.js';
import { OTHER_COMMITS_SEEN_WITHIN_MS } from './sqlite-change-token.js';
import { openStore, type Store } from './store.js';

/** The SQLite store's change token, which the read cache trusts to see every write. */
describe('SQLite change token', () => {
  let dataDir: string;
  let now = 0;
  let server: Store;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'acacia-token-'));
    // The server's monotonic clock stands still unless a test moves it.
    server = await openStore({ dataDir, monotonicNow: () => now });
    await ensureManualClock(server.db, 1);
  });
  after(async () => {
    // Closing waits for the clock to pass the bound, as another process would see it.
    const closing = server.close();
    now += OTHER_COMMITS_SEEN_WITHIN_MS;
    await closing;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('changes at once with a write of its own connection', async () => {
    const before = server.changeToken();
    await advanceManualClock(server.db, 2);
    assert.notEqual(server.changeToken(), before);
  });

  it("sees another connection's commit once the clock has moved on by the stated bound", async () => {
    const before = server.changeToken();
    const other = await openStore({ dataDir });
    await advanceManualClock(other.db, 3);
    await other.close();
    now += OTHER_COMMITS_SEEN_WITHIN_MS;
    assert.notEqual(server.changeToken(), before);
  });

  it('makes a connection that wrote hold its close for the bound, so a returned command has been seen', async () => {
    const other = await openStore({ dataDir });
    await advanceManualClock(other.db, 4);
    const closing = performance.now();
    await other.close();
    assert.ok(performance.now() - closing >= OTHER_COMMITS_SEEN_WITHIN_MS);
  });
});
