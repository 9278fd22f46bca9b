import fs from 'node:fs';
import { DataFolderError, writablePath } from '../data-folder.js';
import { Acc } from './accums.js';
import { QueryRuntimeError, textOf } from './values.js';

/**
 * The most a run, with the queries it calls, may write through FILE objects: a loop that
 * prints cannot fill the disk before its timeout.
 */
export const FILE_WRITE_LIMIT = 256 * 1024 * 1024;

/** Lines of one file held before they are written out together. */
const BUFFER_BYTES = 64 * 1024;
/** Lines of all a run's files held at once: past it every file's are written out. */
const HELD_BYTES = 1024 * 1024;

/**
 * The folder a run's FILE objects write in, and how much they have written. Lines are held per
 * file and written out in blocks of 64 KiB and when the run ends (`flush`): a `println` in an
 * ACCUM runs once per edge, and a write of its own each time would be a system call per edge.
 */
export class QueryFiles {
  private written = 0;
  private readonly opened = new Map<string, string>();
  private readonly held = new Map<string, { lines: string[]; bytes: number }>();
  private heldBytes = 0;

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
    // Declared again, the file starts empty: lines held for it are dropped with its contents.
    this.heldBytes -= this.held.get(full)?.bytes ?? 0;
    this.held.delete(full);
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
    let held = this.held.get(path);
    if (!held) this.held.set(path, (held = { lines: [], bytes: 0 }));
    held.lines.push(line);
    held.bytes += bytes;
    this.heldBytes += bytes;
    // Many files, each under its own size, could otherwise hold much of the run's cap in memory.
    if (this.heldBytes >= HELD_BYTES) this.flush();
    else if (held.bytes >= BUFFER_BYTES) this.writeOut(path, held);
  }

  /** Writes every held line: called when the run ends, whether it finished or failed. */
  flush(): void {
    for (const [path, held] of this.held) this.writeOut(path, held);
  }

  private writeOut(path: string, held: { lines: string[]; bytes: number }): void {
    if (held.lines.length === 0) return;
    fs.appendFileSync(path, `${held.lines.join('\n')}\n`);
    this.heldBytes -= held.bytes;
    held.lines = [];
    held.bytes = 0;
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
