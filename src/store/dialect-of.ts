import { PostgresAdapter, type Kysely } from 'kysely';
import type { DB } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The dialect of an executor (the database, or one transaction's connection), asked of its
 * own adapter, so no caller has to pass one: the capabilities (src/store/capabilities.ts) and
 * the record views' JSON choose their SQL by it.
 */
export function dialectOf(db: Kysely<DB>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
