import { CommitFailed } from './transactions.js';

/** A connection to the database could not be made (refused, not accepting, timed out). */
export class StoreUnreachable extends Error {
  constructor(override readonly cause: unknown) {
    super(`the database is unreachable: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'StoreUnreachable';
  }
}

/**
 * SQLSTATEs of a connection the server ended or cannot serve: class 08 (connection
 * exception), admin_shutdown (pg_terminate_backend), crash_shutdown, cannot_connect_now,
 * too_many_connections.
 */
const LOST_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors of a connection that broke. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** What the pg client says, without a code, of a connection that ended under it. */
const LOST_MESSAGES = /Connection terminated|not queryable|Connection ended/i;

/**
 * True when err says the database could not be reached or the connection in use was lost,
 * rather than that it refused a statement: the request may succeed when retried.
 */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof StoreUnreachable) return true;
  if (err instanceof CommitFailed) return isConnectionLoss(err.cause);
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code.startsWith('08') || LOST_STATES.has(code) || SOCKET_CODES.has(code)) return true;
  return !code && typeof e?.message === 'string' && LOST_MESSAGES.test(e.message);
}

/** True when err is a COMMIT cut off by a lost connection: it may or may not have been applied. */
export function isUncertainCommit(err: unknown): boolean {
  return err instanceof CommitFailed && !err.outcomeKnown && isConnectionLoss(err.cause);
}
