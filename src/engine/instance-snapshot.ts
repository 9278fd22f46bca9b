import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';
import { StoreJobs } from '../dataplane/index.js';
import { AppError } from '../domain/errors.js';
import { iso } from '../domain/time.js';
import {
  afterLoad,
  emptyInstance,
  insertRows,
  knownSchemaLevel,
  readConsistently,
  schemaLevel,
  stateTables,
  tablePage,
  type Row,
  type StateTable,
} from '../store/repositories/instance.js';
import type { Store } from '../store/store.js';
import type { SnapshotSummary } from '../schemas/snapshot.js';

/**
 * An instance snapshot (docs/snapshots.md): gzip'd JSON lines. The first line is the header,
 * then every row of every state table (parents first), then each graph data file as a line
 * naming it followed by lines of its bytes, and last the trailer with the counts and the
 * SHA-256 of every line before it. The checksum is at the end because the file is written as
 * it is read, never held whole.
 */
export const SNAPSHOT_FORMAT = 'acacia-snapshot';
export const SNAPSHOT_VERSION = 1;

interface Header {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  schema: string;
  created_at: string;
  store: string;
}
type Line =
  | { table: StateTable; row: Row }
  | { file: string; size: number }
  | { data: string }
  | { end: true; rows: number; files: number; sha256: string };

/** Rows read from the store at a time. */
const PAGE = 500;
/** Bytes of a graph file per line (base64 makes a line a third longer). */
const CHUNK = 48 * 1024;
/** The longest line read back: a row or a chunk is far below it. */
const MAX_LINE = 1024 * 1024;
/** Graph files a snapshot may carry, relative to the data directory. */
const GRAPH_FILE =
  /^graphs\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}\/(graph\.db|(snapshots|backups)\/[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.db)$/;
const COLUMN = /^[a-z_][a-z0-9_]{0,62}$/;

export type { SnapshotSummary };

/** The refusal of a snapshot file, whole: nothing was changed. */
const refused = (reason: string) => new AppError('invalid', { field: 'snapshot', reason });

/** Binary values (address ranges) travel as base64; everything else is JSON as it is. */
function encodeRow(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row))
    out[k] = Buffer.isBuffer(v) || v instanceof Uint8Array ? { $b64: Buffer.from(v).toString('base64') } : v;
  return out;
}

function decodeRow(row: unknown): Row {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) throw refused('a row is not an object');
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (!COLUMN.test(k)) throw refused(`a row names the column ${JSON.stringify(k.slice(0, 64))}`);
    if (v !== null && typeof v === 'object') {
      const b64 = (v as { $b64?: unknown }).$b64;
      if (typeof b64 !== 'string') throw refused(`a row's ${k} is neither a value nor binary`);
      out[k] = Buffer.from(b64, 'base64');
    } else out[k] = v;
  }
  return out;
}

/** Writes lines to a gzip'd file, hashing each, waiting whenever the file is behind. */
class LineWriter {
  private readonly hash = createHash('sha256');
  private readonly gzip = createGzip();
  private readonly out: WriteStream;
  private readonly done: Promise<void>;

  constructor(file: string) {
    this.out = createWriteStream(file, { mode: 0o600 });
    this.gzip.pipe(this.out);
    this.done = new Promise((resolve, reject) => {
      this.out.on('close', resolve);
      this.out.on('error', reject);
      this.gzip.on('error', reject);
    });
  }

  async write(line: Header | Line, hashed = true): Promise<void> {
    const text = `${JSON.stringify(line)}\n`;
    if (hashed) this.hash.update(text);
    if (!this.gzip.write(text)) await once(this.gzip, 'drain');
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  async close(): Promise<void> {
    this.gzip.end();
    await this.done;
  }
}

/** The files of graph data under the data directory, relative to it (the live graphs' journals left out). */
async function graphFiles(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'graphs');
  let entries: string[];
  try {
    entries = (await fs.readdir(root, { recursive: true })) as string[];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .map((e) => `graphs/${e.split(path.sep).join('/')}`)
    .filter((rel) => GRAPH_FILE.test(rel))
    .sort();
}

/**
 * Writes the whole instance to `file`: the state tables read in one transaction (a consistent
 * state; on PostgreSQL at repeatable read), and the graph data, each live graph copied
 * consistently first (as a backup copies it), the copies that never change as they are.
 */
export async function saveSnapshot(store: Store, dataDir: string, file: string, now: number): Promise<void> {
  const writer = new LineWriter(file);
  const scratch = await fs.mkdtemp(path.join(dataDir, '.snapshot-save-'));
  const jobs = new StoreJobs(1);
  try {
    await writer.write({
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      schema: schemaLevel,
      created_at: iso(now),
      store: store.dialect,
    });
    let rows = 0;
    await store.transaction(async (tx) => {
      await readConsistently(tx.db);
      for (const table of stateTables) {
        let after: Row | undefined;
        for (;;) {
          const page = await tablePage(tx.db, table, after, PAGE);
          for (const row of page) await writer.write({ table, row: encodeRow(row) });
          rows += page.length;
          if (page.length < PAGE) break;
          after = page.at(-1);
        }
      }
    });
    const files = await graphFiles(dataDir);
    for (const [i, rel] of files.entries()) {
      let source = path.join(dataDir, rel);
      if (rel.endsWith('/graph.db')) {
        const copy = path.join(scratch, `${i}.db`);
        await jobs.snapshot(source, copy);
        source = copy;
      }
      const { size } = await fs.stat(source);
      await writer.write({ file: rel, size });
      for await (const chunk of createReadStream(source, { highWaterMark: CHUNK }))
        await writer.write({ data: (chunk as Buffer).toString('base64') });
    }
    const sha256 = writer.digest();
    await writer.write({ end: true, rows, files: files.length, sha256 }, false);
    await writer.close();
  } catch (err) {
    await writer.close().catch(() => undefined);
    throw err;
  } finally {
    await jobs.close();
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The lines of a gzip'd file, each with its exact text; a line longer than the bound is refused. */
async function* linesOf(file: string, maxInflated: number): AsyncGenerator<{ text: string; value: unknown }> {
  const input = createReadStream(file).pipe(createGunzip());
  // A character may be cut between two chunks: the decoder keeps its first bytes for the next.
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let inflated = 0;
  try {
    for await (const chunk of input) {
      inflated += (chunk as Buffer).length;
      if (inflated > maxInflated) throw refused(`inflates to more than ${maxInflated} bytes`);
      pending += decoder.write(chunk as Buffer);
      let start = 0;
      let at: number;
      while ((at = pending.indexOf('\n', start)) >= 0) {
        const text = pending.slice(start, at + 1);
        start = at + 1;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw refused('a line is not JSON');
        }
        yield { text, value };
      }
      pending = pending.slice(start);
      if (pending.length > MAX_LINE) throw refused(`a line is longer than ${MAX_LINE} bytes`);
    }
    pending += decoder.end();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || /unexpected end|incorrect header/i.test(String(err)))
      throw refused('is not a whole gzip file (truncated, damaged, or not gzip at all)');
    throw err;
  } finally {
    input.destroy();
  }
  if (pending.length > 0) throw refused('ends in the middle of a line (truncated)');
}

/** What to do with each line once it is known good (the load), or nothing (the check). */
interface Visitor {
  row(table: StateTable, row: Row): Promise<void>;
  file(rel: string): Promise<void>;
  data(bytes: Buffer): Promise<void>;
}

/** Reads a snapshot through, checking every line; throws `refused` at the first fault. */
async function readSnapshot(file: string, maxInflated: number, visit?: Visitor): Promise<SnapshotSummary> {
  const hash = createHash('sha256');
  let header: Header | undefined;
  let end: Extract<Line, { end: true }> | undefined;
  let rows = 0;
  let files = 0;
  let tableIndex = 0;
  let current: { rel: string; size: number; got: number } | undefined;
  const closeFile = () => {
    if (current && current.got !== current.size) throw refused(`${current.rel} holds fewer bytes than it says`);
    current = undefined;
  };
  for await (const { text, value } of linesOf(file, maxInflated)) {
    if (end) throw refused('goes on after its trailer');
    const line = value as Record<string, unknown>;
    if (!header) {
      if (line?.format !== SNAPSHOT_FORMAT) throw refused(`is not an Acacia snapshot (no "${SNAPSHOT_FORMAT}" header)`);
      if (line.version !== SNAPSHOT_VERSION)
        throw refused(`is of format version ${String(line.version)}; this server reads version ${SNAPSHOT_VERSION}`);
      if (typeof line.schema !== 'string' || !knownSchemaLevel(line.schema))
        throw refused(`was saved at schema ${JSON.stringify(line.schema)}, newer than this server's ${schemaLevel}`);
      header = line as unknown as Header;
      hash.update(text);
      continue;
    }
    if (line?.end === true) {
      closeFile();
      end = line as Extract<Line, { end: true }>;
      continue;
    }
    hash.update(text);
    if (typeof line?.table === 'string') {
      const index = stateTables.indexOf(line.table as StateTable);
      if (index < 0) throw refused(`holds rows of an unknown table ${JSON.stringify(line.table.slice(0, 64))}`);
      if (index < tableIndex || current || files > 0) throw refused('holds rows out of order');
      tableIndex = index;
      const row = decodeRow(line.row);
      rows += 1;
      await visit?.row(line.table as StateTable, row);
    } else if (typeof line?.file === 'string') {
      closeFile();
      if (!GRAPH_FILE.test(line.file) || line.file.includes('..'))
        throw refused(`names a file ${JSON.stringify(line.file.slice(0, 200))} outside the graph data`);
      if (typeof line.size !== 'number' || !Number.isSafeInteger(line.size) || line.size < 0)
        throw refused(`gives ${line.file} no size`);
      current = { rel: line.file, size: line.size, got: 0 };
      files += 1;
      await visit?.file(line.file);
    } else if (typeof line?.data === 'string') {
      if (!current) throw refused('holds data outside a file');
      const bytes = Buffer.from(line.data, 'base64');
      current.got += bytes.length;
      if (current.got > current.size) throw refused(`${current.rel} holds more bytes than it says`);
      await visit?.data(bytes);
    } else throw refused('holds a line of no known kind');
  }
  if (!header) throw refused('is empty');
  if (!end) throw refused('has no trailer (truncated)');
  if (end.sha256 !== hash.digest('hex')) throw refused('does not match its checksum (damaged)');
  if (end.rows !== rows || end.files !== files) throw refused('holds other counts than its trailer says');
  return { created_at: header.created_at, schema: header.schema, store: header.store, rows, files };
}

/** Checks a snapshot file through without changing anything. */
export function verifySnapshot(file: string, maxInflated: number): Promise<SnapshotSummary> {
  return readSnapshot(file, maxInflated);
}

/**
 * Replaces the instance's state with a verified snapshot's: the state tables emptied and
 * filled in one transaction, the graph data written beside the live one and swapped in once
 * the transaction committed. The caller has verified the file and stopped the workspaces'
 * processes and the engine; a failure here still changes nothing in the store.
 */
export async function loadSnapshot(
  store: Store,
  dataDir: string,
  file: string,
  maxInflated: number,
): Promise<SnapshotSummary> {
  const staging = await fs.mkdtemp(path.join(dataDir, '.snapshot-load-'));
  let out: WriteStream | undefined;
  const finishFile = async () => {
    if (!out) return;
    const stream = out;
    out = undefined;
    stream.end();
    await once(stream, 'close');
  };
  try {
    const summary = await store.transaction(async (tx) => {
      await emptyInstance(tx.db);
      let batch: { table: StateTable; rows: Row[] } | undefined;
      const flush = async () => {
        if (batch) await insertRows(tx.db, batch.table, batch.rows);
        batch = undefined;
      };
      const read = await readSnapshot(file, maxInflated, {
        async row(table, row) {
          if (batch?.table !== table || batch.rows.length >= 100) await flush();
          batch ??= { table, rows: [] };
          batch.rows.push(row);
        },
        async file(rel) {
          await finishFile();
          const target = path.join(staging, rel);
          await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
          out = createWriteStream(target, { mode: 0o600 });
        },
        async data(bytes) {
          if (!out!.write(bytes)) await once(out!, 'drain');
        },
      });
      await flush();
      await finishFile();
      await afterLoad(tx.db);
      return read;
    });
    // The store holds the snapshot's state: its graph data replaces the data directory's.
    const graphs = path.join(dataDir, 'graphs');
    const old = path.join(dataDir, `.graphs-replaced-${randomBytes(6).toString('hex')}`);
    await fs.rename(graphs, old).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await fs.mkdir(path.join(staging, 'graphs'), { recursive: true, mode: 0o700 });
    await fs.rename(path.join(staging, 'graphs'), graphs);
    await fs.rm(old, { recursive: true, force: true });
    return summary;
  } finally {
    out?.destroy();
    await fs.rm(staging, { recursive: true, force: true });
  }
}
