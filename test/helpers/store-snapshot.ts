import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { openStore, type Store } from '../../src/store/store.js';
import type { StoreLocation } from './server.js';

/** Every table's rows, each row as canonical JSON, sorted: equal snapshots mean equal stores. */
export type StoreSnapshot = Map<string, { count: number; hash: string; rows: string[] }>;

function canonical(row: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(row)
      .sort()
      .map((k) => [k, row[k]]),
  );
}

/** A second connection to a test server's store, for reading it behind the API's back. */
export async function openStoreOf(location: StoreLocation): Promise<Store> {
  return openStore({ databaseUrl: location.databaseUrl, dataDir: location.dataDir });
}

export async function snapshotStore(store: Store): Promise<StoreSnapshot> {
  // Kysely's introspection lists the application's tables on both dialects (not its own migration tables).
  const db = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const tables = (await store.db.introspection.getTables()).map((t) => t.name).sort();
  const snapshot: StoreSnapshot = new Map();
  for (const table of tables) {
    const rows = (await db.selectFrom(table).selectAll().execute()).map(canonical).sort();
    snapshot.set(table, { count: rows.length, hash: createHash('sha256').update(rows.join('\n')).digest('hex'), rows });
  }
  return snapshot;
}

/** What differs between two snapshots, one line per table (with a few of the rows that differ). */
export function diffSnapshots(before: StoreSnapshot, after: StoreSnapshot): string[] {
  const out: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(table);
    const b = after.get(table);
    if (a?.hash === b?.hash) continue;
    const was = new Set(a?.rows ?? []);
    const now = new Set(b?.rows ?? []);
    const removed = [...was].filter((r) => !now.has(r)).slice(0, 3);
    const added = [...now].filter((r) => !was.has(r)).slice(0, 3);
    out.push(
      `${table}: ${a?.count ?? 0} → ${b?.count ?? 0} rows; removed ` +
        `${removed.join(' | ') || '-'}; added ${added.join(' | ') || '-'}`,
    );
  }
  return out;
}
