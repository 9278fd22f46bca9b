import { CatalogError } from '../catalog.js';
import type { GraphStore } from '../graph-store.js';
import type { LoadingJobDef } from './job-types.js';

/**
 * Loading jobs are kept in the store file, beside the schema, so that they live as long as the
 * graph. A file written before jobs existed has no table until it is opened read-write
 * (store-file.ts creates it); opened read-only, it simply has no jobs.
 */
function hasTable(store: GraphStore): boolean {
  return (
    store.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'loading_jobs'`).get() !== undefined
  );
}

export function findJob(store: GraphStore, name: string): LoadingJobDef | undefined {
  if (!hasTable(store)) return undefined;
  const json = store.db.prepare('SELECT definition FROM loading_jobs WHERE name = ?').pluck().get(name) as
    string | undefined;
  return json === undefined ? undefined : (JSON.parse(json) as LoadingJobDef);
}

/** Jobs in name order, those of one graph when `graph` is given. */
export function listJobs(store: GraphStore, graph?: string): LoadingJobDef[] {
  if (!hasTable(store)) return [];
  const rows = (
    graph === undefined
      ? store.db.prepare('SELECT definition FROM loading_jobs ORDER BY name').pluck().all()
      : store.db.prepare('SELECT definition FROM loading_jobs WHERE graph = ? ORDER BY name').pluck().all(graph)
  ) as string[];
  return rows.map((json) => JSON.parse(json) as LoadingJobDef);
}

/** Job names are one namespace across graphs, as in GSQL. */
export function saveJob(store: GraphStore, job: LoadingJobDef): void {
  store.write(() => {
    if (findJob(store, job.name)) throw new CatalogError(`The job name ${job.name} already exists.`);
    store.db
      .prepare('INSERT INTO loading_jobs (name, graph, definition) VALUES (?, ?, ?)')
      .run(job.name, job.graph, JSON.stringify(job));
  });
}

/** Drops the named jobs (every job of `graph`, or every job, when `names` is undefined). */
export function dropJobs(store: GraphStore, names: string[] | undefined, graph?: string): string[] {
  return store.write(() => {
    const dropping = names ?? listJobs(store, graph).map((j) => j.name);
    const missing = dropping.find((n) => !findJob(store, n));
    if (missing !== undefined) throw new CatalogError(`The job ${missing} does not exist.`);
    const del = store.db.prepare('DELETE FROM loading_jobs WHERE name = ?');
    for (const n of dropping) del.run(n);
    return dropping;
  });
}
