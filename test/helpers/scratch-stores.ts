import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { GraphStore } from '../../src/dataplane/graph-store.js';
import { runGsql } from '../../src/dataplane/gsql-runner.js';

/**
 * Graph store files for a data-plane unit test: each in a scratch folder of the test file's
 * own, removed when its tests end. Real SQLite files, as the data-plane process keeps them.
 */
export function scratchStores(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `acacia-${name}-`));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  /** A path no other store of the test file has, ending in `base`. */
  const file = (base = 'graph.db') => path.join(dir, `${++files}-${base}`);
  return {
    dir,
    file,
    /** A store in a new file, with `gsql` run on it first (which must succeed). */
    open(gsql?: string): GraphStore {
      const store = GraphStore.open(file());
      if (gsql !== undefined) {
        const result = runGsql(store, gsql);
        assert.ok(result.ok, result.output.slice(-300));
      }
      return store;
    },
  };
}
