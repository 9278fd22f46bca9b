import { closeSync, openSync, readSync } from 'node:fs';
import type SqliteDatabase from 'better-sqlite3';

/** Bytes of the wal-index header: two copies of 48 bytes (https://www.sqlite.org/walformat.html). */
const HEADER_COPY = 48;

export interface ChangeToken {
  read(): string;
  close(): void;
}

/**
 * A value that changes with any write to the SQLite file. The server's own connection counts
 * the rows it changes (total_changes, rolled back ones too). Another connection's commit
 * (the CLI beside the server) rewrites the wal-index header at the start of the `-shm` file,
 * whose first field after the version is a counter bumped by every transaction; one read of
 * that header costs a single pread, where `PRAGMA data_version` takes a read lock and
 * releases it (three system calls) on every request. A writer publishes the header as two
 * copies; copies that differ are read as a change.
 *
 * Falls back to data_version when there is no `-shm` file to read (not in WAL mode).
 */
export function sqliteChangeToken(file: SqliteDatabase.Database): ChangeToken {
  const ownChanges = file.prepare('select total_changes()').pluck();
  let shm: number;
  try {
    shm = openSync(`${file.name}-shm`, 'r');
  } catch {
    const dataVersion = file.prepare('pragma data_version').pluck();
    return { read: () => `${ownChanges.get() as number}.${dataVersion.get() as number}`, close: () => undefined };
  }
  const header = Buffer.alloc(2 * HEADER_COPY);
  const seen = Buffer.alloc(HEADER_COPY);
  let commitsSeen = 0;
  return {
    read() {
      const copy = header.subarray(0, HEADER_COPY);
      const whole = readSync(shm, header, 0, header.length, 0) === header.length;
      if (!whole || !copy.equals(header.subarray(HEADER_COPY))) commitsSeen++;
      else if (!copy.equals(seen)) {
        copy.copy(seen);
        commitsSeen++;
      }
      return `${ownChanges.get() as number}.${commitsSeen}`;
    },
    close: () => closeSync(shm),
  };
}
