import fs from 'node:fs';
import path from 'node:path';
import type { GraphStore } from './graph-store.js';

/**
 * The workspace's own folder for data files, beside its store file: the only place loading jobs
 * read from and `FILE` objects of queries write to, so that neither reaches another workspace's
 * files or the host's.
 */
export function dataFolder(store: GraphStore): string {
  return path.join(path.dirname(store.db.name), 'files');
}

/**
 * The largest body `POST /ddl` takes, at the gateway and (unless told otherwise) in the
 * workspace's process: pyTigerGraph's default `sizeLimit` for the files it uploads. The body
 * goes to a file as it arrives and is read back in chunks, so its size costs disk, not memory.
 */
export const UPLOAD_LIMIT = 128_000_000;

/** Whether a request is an upload to `POST /ddl/{graph}` (under `/restpp` or not), which UPLOAD_LIMIT bounds. */
export const isUpload = (method: string, path: string): boolean =>
  method === 'POST' && /^\/(?:restpp\/)?ddl\/[^/]+\/?$/.test(path);

/**
 * Where bodies posted to `/ddl` are written while they are loaded, beside the store file and
 * outside the data folder, so that no query or loading job reads another request's upload.
 * Each is removed when its request ends; what a crash leaves is removed when the process starts.
 */
export function uploadFolder(store: GraphStore): string {
  return path.join(path.dirname(store.db.name), 'uploads');
}

const within = (folder: string, p: string) => p.startsWith(folder + path.sep);

/** Why a path was refused; the caller words it for its own statement. */
export type FolderRefusal = 'noFolder' | 'outside' | 'missing' | 'notFile';

export class DataFolderError extends Error {
  constructor(
    readonly reason: FolderRefusal,
    readonly file: string,
    readonly folder: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/**
 * The real path of an existing file to read (relative paths are taken from the folder),
 * refused when it is not inside the folder once links are followed.
 */
export function readablePath(folder: string, file: string): string {
  const refuse = (reason: FolderRefusal): never => {
    throw new DataFolderError(reason, file, folder);
  };
  let realFolder = '';
  try {
    realFolder = fs.realpathSync(folder);
  } catch {
    refuse('noFolder');
  }
  const wanted = path.resolve(realFolder, file);
  if (!within(realFolder, wanted)) refuse('outside');
  let real = '';
  try {
    real = fs.realpathSync(wanted);
  } catch {
    refuse('missing');
  }
  // A link inside the folder may point out of it.
  if (!within(realFolder, real)) refuse('outside');
  if (!fs.statSync(real).isFile()) refuse('notFile');
  return real;
}

/**
 * A path to write (created with its folders), refused when it, or a link on the way to it, leads
 * out of the folder: the nearest existing folder on its way is checked once links are followed,
 * before anything is created, and so is the file when it already exists.
 */
export function writablePath(folder: string, file: string): string {
  fs.mkdirSync(folder, { recursive: true });
  const realFolder = fs.realpathSync(folder);
  const wanted = path.resolve(realFolder, file);
  const outside = () => new DataFolderError('outside', file, folder);
  if (!within(realFolder, wanted)) throw outside();
  let existing = path.dirname(wanted);
  while (!fs.existsSync(existing)) existing = path.dirname(existing);
  const realExisting = fs.realpathSync(existing);
  if (realExisting !== realFolder && !within(realFolder, realExisting)) throw outside();
  fs.mkdirSync(path.dirname(wanted), { recursive: true });
  if (fs.existsSync(wanted) && !within(realFolder, fs.realpathSync(wanted))) throw outside();
  return wanted;
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
