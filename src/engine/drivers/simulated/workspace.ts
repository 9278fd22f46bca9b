import type { WorkspaceAction } from '../../../domain/actions.js';
import {
  done,
  type MetricsContext,
  type Observation,
  type StepContext,
  type WorkspaceDriver,
  type WorkspaceSpec,
} from '../driver.js';
import { simulatedReading } from './metrics.js';
import { stillWorking, workspaceSeconds } from './timing.js';

/**
 * Workspaces as a row and a timer: each step finishes after its simulated duration and then
 * reports the workspace running as the spec asks. A restore reports the backup's data; the
 * runtime is never lost.
 */
export class SimulatedWorkspaceDriver implements WorkspaceDriver {
  constructor(private readonly speed: number) {}

  async apply(actions: readonly WorkspaceAction[], spec: WorkspaceSpec, ctx: StepContext) {
    const waiting = stillWorking(workspaceSeconds(actions), ctx, this.speed);
    if (waiting) return waiting;
    if (actions.includes('delete')) return done({ endpoint: null });
    return done({
      size: spec.size,
      replicas: spec.replicas,
      version: spec.version,
      ...(spec.restoreFrom
        ? { topologyBytes: spec.restoreFrom.sizeBytes, snapshotTime: spec.restoreFrom.takenAt }
        : {}),
    });
  }

  async observe(): Promise<Observation> {
    return { kind: 'running' };
  }

  async removeDatabase() {
    return done({});
  }

  async metrics(spec: WorkspaceSpec, ctx: MetricsContext) {
    return simulatedReading(spec, ctx.now);
  }
}
