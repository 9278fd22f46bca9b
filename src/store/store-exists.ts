import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { StoreUnreachable } from './connection-loss.js';

/** Where a store would be, and whether one is there (a server has run on it). */
export interface StoreLookup {
  exists: boolean;
  /** The SQLite file, or the PostgreSQL database (without its password). */
  where: string;
}

const withoutPassword = (url: string) => {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
};

/**
 * Looks for the store without making one: the SQLite file in the data directory, or on
 * PostgreSQL the table of applied migrations (a database no server has run on has none).
 */
export async function findStore(options: { databaseUrl?: string | undefined; dataDir: string }): Promise<StoreLookup> {
  if (!options.databaseUrl) {
    const file = path.join(options.dataDir, 'acacia.db');
    return { exists: existsSync(file), where: file };
  }
  const where = withoutPassword(options.databaseUrl);
  const client = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (err) {
    // A connect that failed on this side (an authentication it cannot do) leaves the socket
    // open, and the server waiting for the rest of the handshake: it is cut.
    client.connection.stream.destroy();
    // A database that does not exist holds no store; anything else is a connection problem.
    if ((err as { code?: string }).code === '3D000') return { exists: false, where };
    throw new StoreUnreachable(err);
  }
  try {
    const { rows } = await client.query<{ found: string | null }>(
      "select to_regclass('kysely_migration')::text as found",
    );
    return { exists: rows[0]?.found != null, where };
  } finally {
    await client.end();
  }
}
