import { readStoreStats, removeAbandonedPartials, restoreStore, snapshotStore, type StoreStats } from './snapshot.js';
import { ensureStoreFile } from './store-file.js';

/** Work on store files that takes time with the graph's size: what StoreJobs runs off the caller's thread. */
export type StoreJob =
  | { kind: 'ensure'; file: string }
  | { kind: 'snapshot'; storeFile: string; snapshotFile: string }
  | { kind: 'restore'; snapshotFile: string; storeFile: string }
  | { kind: 'stats'; file: string }
  | { kind: 'sweep'; dirs: string[] };

/** What each kind of job gives back. */
export interface StoreJobResults {
  ensure: string;
  snapshot: { size_bytes: number };
  restore: void;
  stats: StoreStats;
  sweep: number;
}

/** Runs one job where it is called: in a worker thread of StoreJobs. */
export function runStoreJob(job: StoreJob): StoreJobResults[StoreJob['kind']] {
  switch (job.kind) {
    case 'ensure':
      return ensureStoreFile(job.file);
    case 'snapshot':
      return snapshotStore(job.storeFile, job.snapshotFile);
    case 'restore':
      return restoreStore(job.snapshotFile, job.storeFile);
    case 'stats':
      return readStoreStats(job.file);
    case 'sweep':
      return job.dirs.reduce((removed, dir) => removed + removeAbandonedPartials(dir), 0);
  }
}
