import pg from 'pg';
import { createStore, type StoreLocation } from '../test/helpers/store-location.js';

export type StoreKind = 'sqlite' | 'postgres';

/** Admin connection used to create and drop each run's database. */
export const pgAdminUrl = process.env.ACACIA_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh temporary data directory, plus a fresh PostgreSQL database for `postgres`. */
export function freshStore(kind: StoreKind): Promise<StoreLocation> {
  return createStore(kind === 'postgres' ? pgAdminUrl : undefined, 'acacia-bench');
}

/** The PostgreSQL server's version, for the report. */
export async function postgresVersion(): Promise<string> {
  const client = new pg.Client({ connectionString: pgAdminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return rows[0]!.server_version;
  } finally {
    await client.end();
  }
}
