import fs from 'node:fs';
import { DataFolderError, writablePath } from '../data-folder.js';
import { Acc } from './accums.js';
import { QueryRuntimeError, textOf } from './values.js';

/**
 * The most a run, with the queries it calls, may write through FILE objects: a loop that
 * prints cannot fill the disk before its timeout.
 */
export const FILE_WRITE_LIMIT = 256 * 1024 * 1024;

/** The folder a run's FILE objects write in, and how much they have written. */
export class QueryFiles {
  private written = 0;
  private readonly opened = new Map<string, string>();

  constructor(
    readonly root: string,
    private readonly limit = FILE_WRITE_LIMIT,
  ) {}

  /** Creates or empties the file a query names, which must be inside the folder; its full path. */
  open(asked: string): string {
    let full: string;
    try {
      full = writablePath(this.root, asked);
    } catch (err) {
      if (!(err instanceof DataFolderError)) throw err;
      throw new QueryRuntimeError(
        `The file path '${asked}' is outside the workspace's file folder; FILE objects may only write inside it.`,
      );
    }
    fs.writeFileSync(full, '');
    return full;
  }

  /** `open` once per run for each path: `PRINT … TO_CSV "path"` adds a line each time it runs. */
  openOnce(asked: string): string {
    let full = this.opened.get(asked);
    if (full === undefined) this.opened.set(asked, (full = this.open(asked)));
    return full;
  }

  /** Appends one line to a file `open` gave. */
  append(path: string, line: string): void {
    const bytes = Buffer.byteLength(line) + 1;
    if (this.written + bytes > this.limit)
      throw new QueryRuntimeError(`The query wrote more than ${this.limit} bytes to its files; write less.`);
    this.written += bytes;
    fs.appendFileSync(path, `${line}\n`);
  }
}

/**
 * A value as one field of a line, as `println` and `PRINT … TO_CSV` write it: a vertex as its
 * id, a list or set as its elements separated by spaces, anything else as its text.
 */
export function csvField(v: unknown): string {
  if (v instanceof Acc) {
    const inner = v.value();
    return inner === v ? textOf(v) : csvField(inner);
  }
  if (Array.isArray(v) || v instanceof Set) return [...v].map(csvField).join(' ');
  return textOf(v);
}
