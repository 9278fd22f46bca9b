import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readCounts, type GraphStore, type StoreCounts } from './graph-store.js';
import { isPidAlive } from '../process-alive.js';
import { checkFormat, openStoreFile, optionalStoreTables, privateStoreFile, storeTables } from './store-file.js';

export type { StoreCounts };

/** Counts from a store file, plus the bytes the file and its write-ahead log take on disk. */
export interface StoreStats extends StoreCounts {
  store_file_bytes: number;
}

const fileSize = (file: string) => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

/** The statistics of a store open in this process. */
export function storeStats(store: GraphStore): StoreStats {
  const file = store.db.name;
  return { ...store.counts(), store_file_bytes: fileSize(file) + fileSize(`${file}-wal`) };
}

/**
 * Reads the counts of a store file from a connection of its own: consistent with the last
 * commit even while a data-plane process writes to the file.
 */
export function readStoreStats(storeFile: string): StoreStats {
  const db = new Database(storeFile, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    checkFormat(db);
    return { ...readCounts(db), store_file_bytes: fileSize(storeFile) + fileSize(`${storeFile}-wal`) };
  } finally {
    db.close();
  }
}

/**
 * A copy is written under a temporary name, `.<name>.<writer>.partial`, and renamed once
 * complete. The writer is `<pid>-<host>-<random>` (the host as a short hash), so a partial
 * copy whose writer died (a crash in the middle of a copy) can be told from one being written.
 */
const PARTIAL = '.partial';
const hostTag = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

function partialName(file: string): string {
  const writer = `${process.pid}-${hostTag}-${randomBytes(6).toString('hex')}`;
  return path.join(path.dirname(file), `.${path.basename(file)}.${writer}${PARTIAL}`);
}

/**
 * Whether a partial copy is abandoned: its writer, on this host, is no longer running. One
 * named without its writer was left by an earlier version, which wrote it within one call
 * that renamed or removed it: it is left over from a crash. A partial copy of another host's
 * process, or of this process (being written), is kept.
 */
function abandoned(name: string): boolean {
  const writer = name.slice(0, -PARTIAL.length).split('.').at(-1)!.split('-');
  if (writer.length === 1) return true;
  const [pid, host] = [Number(writer[0]), writer[1]];
  return host === hostTag && pid !== process.pid && Number.isInteger(pid) && !isPidAlive(pid);
}

/** Removes the abandoned partial copies in `dir` (a crash in the middle of a copy leaves one). */
export function removeAbandonedPartials(dir: string): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names)
    if (name.startsWith('.') && name.endsWith(PARTIAL) && abandoned(name)) {
      fs.rmSync(path.join(dir, name), { force: true });
      removed++;
    }
  return removed;
}

/**
 * Writes a consistent copy of a live store file to `snapshotFile` (which must not exist):
 * `VACUUM INTO` reads one snapshot of the database from a second connection, so writes of the
 * serving process neither block it nor tear it. The copy is compact, in rollback-journal mode
 * (a read-only process can serve it as it is), and appears under its name only once complete
 * and on disk (the file synced before the rename, the folder after). The abandoned partial
 * copies of earlier crashes in its folder are removed first.
 */
export function snapshotStore(storeFile: string, snapshotFile: string): { size_bytes: number } {
  if (fs.existsSync(snapshotFile)) throw new Error(`the snapshot file ${snapshotFile} already exists`);
  const dir = path.dirname(snapshotFile);
  removeAbandonedPartials(dir);
  const partial = partialName(snapshotFile);
  const db = new Database(storeFile, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    checkFormat(db);
    // Made empty and 0600 first: VACUUM INTO fills an empty file, and would make one 0644.
    privateStoreFile(partial, { create: true });
    db.prepare('VACUUM INTO ?').run(partial);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
  sync(partial);
  fs.renameSync(partial, snapshotFile);
  sync(dir);
  return { size_bytes: fs.statSync(snapshotFile).size };
}

/** Puts a file's content, or a folder's names, on disk. */
function sync(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Replaces a store's whole content (schema and data) with a snapshot's, in one transaction on
 * the store file. It works whether or not a process serves the file: readers see the old or
 * the new graph, never a mix, and a serving process reloads the schema at its next request.
 * The store file is created when it does not exist.
 */
export function restoreStore(snapshotFile: string, storeFile: string): void {
  if (!fs.existsSync(snapshotFile)) throw new Error(`the snapshot file ${snapshotFile} does not exist`);
  const db = openStoreFile(storeFile);
  try {
    db.prepare('ATTACH DATABASE ? AS snap').run(snapshotFile);
    try {
      checkFormat(db, 'snap');
      const versionSql = (schema: string) =>
        `SELECT CAST(value AS INTEGER) FROM ${schema}.store_meta WHERE key = 'catalog_version'`;
      db.transaction(() => {
        // The schema version moves past both histories: clients that cache a schema see it change.
        const version =
          Math.max(
            Number(db.prepare(versionSql('main')).pluck().get()),
            Number(db.prepare(versionSql('snap')).pluck().get()),
          ) + 1;
        for (const table of [...storeTables].reverse()) db.prepare(`DELETE FROM main.${table}`).run();
        for (const table of storeTables) db.prepare(`INSERT INTO main.${table} SELECT * FROM snap.${table}`).run();
        for (const table of optionalStoreTables) {
          db.prepare(`DELETE FROM main.${table}`).run();
          const present = db.prepare(`SELECT 1 FROM snap.sqlite_master WHERE type = 'table' AND name = ?`).get(table);
          if (present) db.prepare(`INSERT INTO main.${table} SELECT * FROM snap.${table}`).run();
        }
        db.prepare(`UPDATE main.store_meta SET value = ? WHERE key = 'catalog_version'`).run(String(version));
      }).immediate();
    } finally {
      db.exec('DETACH DATABASE snap');
    }
  } finally {
    db.close();
  }
}
