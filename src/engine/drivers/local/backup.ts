import fs from 'node:fs';
import type { StoreJobs } from '../../../dataplane/index.js';
import { done, type BackupDriver, type BackupRef, type BackupSpec } from '../driver.js';
import type { Layout } from './layout.js';

/**
 * A backup is a consistent copy of the graph the workspace serves (its database's graph, or
 * a read-only workspace's snapshot), taken while the process serves it; removing one removes
 * the file. The copy takes time with the graph's size: it is made in a worker thread
 * (StoreJobs), never on the event loop the API, the gateway and the engine share.
 */
export class LocalBackupDriver implements BackupDriver {
  constructor(
    private readonly layout: Layout,
    private readonly jobs: StoreJobs,
  ) {}

  async backup(spec: BackupSpec) {
    const { workspace } = spec;
    const target = this.layout.prepare(this.layout.backupFile(workspace.databaseId, spec.backupId));
    // A step run again finds the copy it made.
    if (fs.existsSync(target)) return done({ sizeBytes: fs.statSync(target).size });
    const snapshotId = workspace.observed.snapshotId;
    const source =
      workspace.readOnly && snapshotId
        ? this.layout.snapshotFile(workspace.databaseId, snapshotId)
        : await this.jobs.ensure(this.layout.prepare(this.layout.graphFile(workspace.databaseId)));
    return done({ sizeBytes: (await this.jobs.snapshot(source, target)).size_bytes });
  }

  async remove(ref: BackupRef) {
    fs.rmSync(this.layout.backupFile(ref.databaseId, ref.backupId), { force: true });
    return done({});
  }
}
