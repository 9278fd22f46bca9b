import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { StoreUnreachable } from '../src/store/connection-loss.js';
import { findStore } from '../src/store/store-exists.js';
import { countingServer, unknownAuthentication } from './helpers/counting-server.js';
import { storeName } from './helpers/server.js';

// The lookup `acacia admin` makes before it opens a store; a PostgreSQL that answers oddly is
// played by a socket here, on either store.
describe(`looking for a store (${storeName})`, () => {
  it('a connect that fails on its own side says the database is unreachable and leaves no socket open', async () => {
    const server = await countingServer(unknownAuthentication);
    try {
      await assert.rejects(
        findStore({ databaseUrl: `postgres://nobody:secret@127.0.0.1:${server.port}/acacia`, dataDir: '/nonexistent' }),
        (err) => err instanceof StoreUnreachable && /SASL/.test(err.message),
      );
      assert.equal(server.seen.accepted, 1);
      for (let i = 0; server.open.size > 0; i++) {
        assert.ok(i < 100, 'the connection is closed once the lookup has failed');
        await sleep(20);
      }
    } finally {
      await server.close();
    }
  });
});
