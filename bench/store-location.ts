import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export type StoreKind = 'sqlite' | 'postgres';

/** Where one benchmark's store lives; dispose removes it (the PostgreSQL database too). */
export interface StoreLocation {
  kind: StoreKind;
  dataDir: string;
  databaseUrl?: string;
  dispose(): Promise<void>;
}

/** Admin connection used to create and drop each run's database. */
export const pgAdminUrl = process.env.ACACIA_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh temporary data directory, plus a fresh PostgreSQL database for `postgres`. */
export async function freshStore(kind: StoreKind): Promise<StoreLocation> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'acacia-bench-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') return { kind, dataDir, dispose: async () => removeDir() };
  const name = `acacia_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    dataDir,
    databaseUrl: url.toString(),
    dispose: async () => {
      removeDir();
      // The server and the seeding pool have closed by now; force drops any straggler.
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgAdminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
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
