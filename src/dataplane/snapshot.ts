import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readCounts, type GraphStore, type StoreCounts } from './graph-store.js';
import { checkFormat, openStoreFile, privateStoreFile, storeTables } from './store-file.js';

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
 * Writes a consistent copy of a live store file to `snapshotFile` (which must not exist):
 * `VACUUM INTO` reads one snapshot of the database from a second connection, so writes of the
 * serving process neither block it nor tear it. The copy is compact, in rollback-journal mode
 * (a read-only process can serve it as it is), and appears under its name only once complete.
 */
export function snapshotStore(storeFile: string, snapshotFile: string): { size_bytes: number } {
  if (fs.existsSync(snapshotFile)) throw new Error(`the snapshot file ${snapshotFile} already exists`);
  const partial = path.join(
    path.dirname(snapshotFile),
    `.${path.basename(snapshotFile)}.${randomBytes(6).toString('hex')}.partial`,
  );
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
  fs.renameSync(partial, snapshotFile);
  return { size_bytes: fs.statSync(snapshotFile).size };
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
        db.prepare(`UPDATE main.store_meta SET value = ? WHERE key = 'catalog_version'`).run(String(version));
      }).immediate();
    } finally {
      db.exec('DETACH DATABASE snap');
    }
  } finally {
    db.close();
  }
}
