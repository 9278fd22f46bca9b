import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { listeningUrl, spawnCli, storeEnv } from './helpers/cli.js';
import { stopProcess } from './helpers/serve.js';
import { freshStore, storeName } from './helpers/server.js';

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

/** Runs `start` with no umask, so the modes seen are the ones Acacia asks for, not a umask's narrowing. */
async function withoutUmask<T>(start: () => T): Promise<T> {
  const previous = process.umask(0);
  try {
    return start();
  } finally {
    process.umask(previous);
  }
}

describe(`files at rest (${storeName})`, () => {
  it('makes the data directory 0700 and every file in it 0600', async () => {
    const store = await freshStore();
    // A data directory that does not exist yet, as on a first start.
    const dataDir = path.join(store.dataDir, 'data');
    const child = await withoutUmask(() =>
      spawnCli(['serve'], { ...storeEnv(store), ACACIA_DATA_DIR: dataDir, ACACIA_PORT: '0', ACACIA_GATEWAY_PORT: '0' }),
    );
    const output = { stdout: '', stderr: '' };
    try {
      await listeningUrl(child, output);
      assert.equal(modeOf(dataDir), '700');
      const files = ['bootstrap-key'];
      if (storeName === 'sqlite') files.push('acacia.db', 'acacia.db-wal', 'acacia.db-shm');
      for (const name of files) {
        const file = path.join(dataDir, name);
        assert.ok(existsSync(file), `${name} exists`);
        assert.equal(modeOf(file), '600', name);
      }
    } finally {
      await stopProcess(child, 'SIGKILL');
      await store.dispose();
    }
  });
});
