import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';

/** Keyset page request: `limit` rows after `cursor` in (created_at, id) order. */
export interface Page {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface PageResult<T> {
  items: T[];
  nextCursor?: string;
}

export interface CursorPosition {
  createdAt: number;
  id: string;
}

export function encodeCursor(pos: CursorPosition): string {
  return Buffer.from(`${pos.createdAt}:${pos.id}`).toString('base64url');
}

/** Undefined when the cursor is not one this service issued. */
export function decodeCursor(cursor: string): CursorPosition | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{1,16}):([\w-]{1,64})$/.exec(text);
  return match ? { createdAt: Number(match[1]), id: match[2]! } : undefined;
}

/**
 * Orders a single-table query by (created_at, id) and keeps the rows after the cursor, one
 * more than the limit so toPage can tell whether a next page exists. The row-value comparison
 * runs on both stores and uses a (…, created_at, id) index.
 */
export function keyset<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  limit: number | undefined,
  after: CursorPosition | undefined,
): SelectQueryBuilder<DB, TB, O> {
  const rest = after ? query.where(sql<SqlBool>`(created_at, id) > (${after.createdAt}, ${after.id})`) : query;
  const ordered = rest.orderBy(sql`created_at`).orderBy(sql`id`);
  return limit === undefined ? ordered : ordered.limit(limit + 1);
}

const byCreation = (row: { created_at: number; id: string }): CursorPosition => ({
  createdAt: row.created_at,
  id: row.id,
});

/**
 * Cuts a fetched list (limit + 1 rows) into a page and the cursor of the next one: the
 * position of the page's last row, by (created_at, id) unless `positionOf` says otherwise.
 */
export function toPage<T extends { created_at: number; id: string }>(
  rows: T[],
  limit: number | undefined,
): PageResult<T>;
export function toPage<T>(rows: T[], limit: number | undefined, positionOf: (row: T) => CursorPosition): PageResult<T>;
export function toPage<T>(
  rows: T[],
  limit: number | undefined,
  positionOf = byCreation as unknown as (row: T) => CursorPosition,
): PageResult<T> {
  if (limit === undefined || rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, nextCursor: encodeCursor(positionOf(items[items.length - 1]!)) };
}
