import fs from 'node:fs';
import path from 'node:path';
import { CatalogError } from '../catalog.js';
import type { GraphStore } from '../graph-store.js';

/**
 * The workspace's own folder for data files, beside its store file: the only place a loading
 * job may read from by path, so that a job cannot read another workspace's files or the host's.
 */
export function dataFolder(store: GraphStore): string {
  return path.join(path.dirname(store.db.name), 'files');
}

/**
 * The real path of `file` (relative paths are taken from the data folder), refused when it is
 * not inside the folder once links are followed.
 */
export function confinedPath(store: GraphStore, file: string): string {
  const folder = dataFolder(store);
  let realFolder: string;
  try {
    realFolder = fs.realpathSync(folder);
  } catch {
    throw new CatalogError(`The data folder ${folder} of this workspace does not exist; put the files to load there.`);
  }
  const wanted = path.resolve(realFolder, file);
  const outside = () =>
    new CatalogError(`The file ${file} is outside the data folder ${folder}: loading jobs read only from there.`);
  if (!wanted.startsWith(realFolder + path.sep)) throw outside();
  let real: string;
  try {
    real = fs.realpathSync(wanted);
  } catch {
    throw new CatalogError(`The file ${file} does not exist in the data folder ${folder}.`);
  }
  // A link inside the folder may point out of it.
  if (!real.startsWith(realFolder + path.sep)) throw outside();
  if (!fs.statSync(real).isFile()) throw new CatalogError(`The file ${file} is not a regular file.`);
  return real;
}

/** A file's text in chunks, read as it is consumed; the descriptor is closed however the reading ends. */
export function* fileChunks(file: string, chunkBytes = 1 << 20): Generator<string, void, undefined> {
  const fd = fs.openSync(file, 'r');
  const decoder = new TextDecoder('utf-8');
  const buf = Buffer.allocUnsafe(chunkBytes);
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, chunkBytes, null);
      if (n === 0) break;
      yield decoder.decode(buf.subarray(0, n), { stream: true });
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    fs.closeSync(fd);
  }
}
