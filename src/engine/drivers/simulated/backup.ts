import { done, type BackupDriver, type BackupSpec, type StepContext } from '../driver.js';
import { backupSeconds, stillWorking } from './timing.js';

/** A simulated backup is as large as the workspace's graph; removing one is immediate. */
export class SimulatedBackupDriver implements BackupDriver {
  constructor(private readonly speed: number) {}

  async backup(spec: BackupSpec, ctx: StepContext) {
    return (
      stillWorking(backupSeconds, ctx, this.speed) ?? done({ sizeBytes: spec.workspace.observed.topologyBytes ?? 0 })
    );
  }

  async remove() {
    return done({});
  }
}
