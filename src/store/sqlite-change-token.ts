import { closeSync, openSync, readSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type SqliteDatabase from 'better-sqlite3';

/** Bytes of the wal-index header: two copies of 48 bytes (https://www.sqlite.org/walformat.html). */
const HEADER_COPY = 48;

/**
 * How long a commit by another connection may go unseen by `read()`, in milliseconds. A
 * connection that wrote holds its `close()` this long, so once a command that wrote (say
 * `acacia admin keys revoke`) has returned, the server's next request sees its change.
 */
export const OTHER_COMMITS_SEEN_WITHIN_MS = 1;

export interface ChangeToken {
  /** Changes whenever committed data may have changed; see sqliteChangeToken. */
  read(): number;
  /** This connection has just changed rows. */
  wrote(): void;
  /** Releases the `-shm` file; waits out OTHER_COMMITS_SEEN_WITHIN_MS if this connection wrote. */
  close(): Promise<void>;
}

/** Milliseconds on a monotonic clock shared by the processes of one machine (CLOCK_MONOTONIC). */
export type MonotonicNow = () => number;

/**
 * A number that changes with any write to the SQLite file. Writes by this connection are
 * counted as they are made (the store calls `wrote()`), so a request sees its own
 * process's writes at once. A commit by another connection (the CLI beside the server)
 * rewrites the wal-index header at the start of the `-shm` file, whose first field after the
 * version is a counter bumped by every transaction: that header is read at most once per
 * OTHER_COMMITS_SEEN_WITHIN_MS, since a system call on every request cost this server a
 * fifth of its cached reads. A writer publishes the header as two copies; copies that differ
 * are read as a change.
 *
 * Falls back to `PRAGMA data_version`, on the same period, when there is no `-shm` file to
 * read (not in WAL mode).
 */
export function sqliteChangeToken(
  file: SqliteDatabase.Database,
  now: MonotonicNow = () => performance.now(),
): ChangeToken {
  let ownWrites = 0;
  let otherCommits = 0;
  let checkedAt = -Infinity;
  const otherCommitsNow = otherCommitCounter(file);
  return {
    read() {
      const at = now();
      if (at - checkedAt >= OTHER_COMMITS_SEEN_WITHIN_MS) {
        checkedAt = at;
        otherCommits = otherCommitsNow.read();
      }
      // Both only grow, so the sum changes whenever either does.
      return ownWrites + otherCommits;
    },
    wrote() {
      ownWrites++;
    },
    async close() {
      otherCommitsNow.close();
      if (ownWrites === 0) return;
      const until = now() + OTHER_COMMITS_SEEN_WITHIN_MS;
      // A timer may fire a fraction of a millisecond early: check the clock, not the timer.
      while (now() < until) await sleep(1);
    },
  };
}

/** A count that grows with every commit another connection makes. */
function otherCommitCounter(file: SqliteDatabase.Database): { read(): number; close(): void } {
  let shm: number;
  try {
    shm = openSync(`${file.name}-shm`, 'r');
  } catch {
    const dataVersion = file.prepare('pragma data_version').pluck();
    return { read: () => dataVersion.get() as number, close: () => undefined };
  }
  const header = Buffer.alloc(2 * HEADER_COPY);
  const seen = Buffer.alloc(HEADER_COPY);
  let commits = 0;
  return {
    read() {
      const copy = header.subarray(0, HEADER_COPY);
      const whole = readSync(shm, header, 0, header.length, 0) === header.length;
      if (!whole || !copy.equals(header.subarray(HEADER_COPY))) commits++;
      else if (!copy.equals(seen)) {
        copy.copy(seen);
        commits++;
      }
      return commits;
    },
    close: () => closeSync(shm),
  };
}
