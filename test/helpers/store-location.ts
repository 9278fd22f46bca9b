import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Where one server's store lives; dispose removes it (the PostgreSQL database too). */
export interface StoreLocation {
  dataDir: string;
  databaseUrl?: string;
  dispose(): Promise<void>;
}

/**
 * A fresh temporary data directory named `<prefix>-…` and, given an admin connection to a
 * PostgreSQL server, a fresh database `<prefix>_…` on it; SQLite (a file in the directory) otherwise.
 */
export async function createStore(pgAdminUrl: string | undefined, prefix: string): Promise<StoreLocation> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (!pgAdminUrl) return { dataDir, dispose: async () => removeDir() };
  const name = `${prefix.replace(/-/g, '_')}_${randomBytes(6).toString('hex')}`;
  await withAdmin(pgAdminUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    dispose: async () => {
      removeDir();
      await withAdmin(pgAdminUrl, async (c) => {
        // A closed pool's connections end asynchronously; forcing the drop while they are
        // still closing would make them report an error. Wait for them to go first.
        for (let i = 0; i < 100; i++) {
          const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (rows[0].n === 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await c.query(`drop database if exists ${name} with (force)`);
      });
    },
  };
}

async function withAdmin(pgAdminUrl: string, use: (c: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: pgAdminUrl });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}
