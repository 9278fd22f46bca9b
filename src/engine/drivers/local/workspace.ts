import fs from 'node:fs';
import path from 'node:path';
import type { StoreJobs } from '../../../dataplane/index.js';
import {
  done,
  failed,
  type MetricsContext,
  type Observation,
  type ObserveContext,
  type StepContext,
  type WorkspaceAction,
  type WorkspaceDriver,
  type WorkspaceObserved,
  type WorkspaceSpec,
} from '../driver.js';
import { snapshotName, type Layout } from './layout.js';
import { readProcessMetrics } from './metrics.js';
import { runtimeShape } from './resources.js';
import type { LocalRuntimes } from './runtimes.js';

/**
 * Workspaces with real data: a read-write workspace serves its database's graph file, a
 * read-only one a snapshot of it taken at its creation or last refresh. Each Active workspace
 * is one data-plane process (LocalRuntimes); every step converges on the spec and reports the
 * figures read from the data. Snapshots, restores and counts take time with the graph's size,
 * which the tenant controls, and opening a store may wait for its write lock: all of it runs in
 * worker threads (StoreJobs), never on the event loop the API, the gateway and the engine share.
 */
export class LocalWorkspaceDriver implements WorkspaceDriver {
  constructor(
    private readonly layout: Layout,
    private readonly runtimes: LocalRuntimes,
    private readonly jobs: StoreJobs,
    /** Where each process's secret derives from. */
    private readonly dataDir: string,
  ) {}

  async apply(actions: readonly WorkspaceAction[], spec: WorkspaceSpec, ctx: StepContext) {
    if (actions.includes('delete')) {
      await this.runtimes.stop(spec.workspaceId);
      if (spec.readOnly) this.removeSnapshots(spec);
      return done<WorkspaceObserved>({ endpoint: null });
    }
    const running = { size: spec.size, replicas: spec.replicas, version: spec.version };
    if (actions.includes('pause')) {
      await this.runtimes.stop(spec.workspaceId);
      // The figures of the data it keeps: written since the last look, they show while it sleeps.
      const kept = this.servedFile(spec);
      return done<WorkspaceObserved>({
        ...running,
        ...(kept && fs.existsSync(kept) ? await this.figures(kept) : {}),
        endpoint: null,
      });
    }

    if (spec.readOnly && spec.restoreFrom)
      return failed("a read-only workspace serves a snapshot; restore the database's read-write workspace");
    let file = this.servedFile(spec);
    let snapshot: Pick<WorkspaceObserved, 'snapshotId' | 'snapshotTime'> = {};
    const fresh = actions.includes('create') || actions.includes('refresh');
    if (spec.readOnly && (fresh || !file || !fs.existsSync(file))) {
      const snapshotId = snapshotName(spec.workspaceId, ctx.operationId);
      file = this.layout.prepare(this.layout.snapshotFile(spec.databaseId, snapshotId));
      // A step run again finds the snapshot it took.
      if (!fs.existsSync(file)) await this.jobs.snapshot(await this.jobs.ensure(this.sourceFile(spec)), file);
      snapshot = { snapshotId, snapshotTime: ctx.now };
    }
    file ??= this.sourceFile(spec);
    if (!spec.readOnly) await this.jobs.ensure(file);
    if (spec.restoreFrom) {
      const backup = this.layout.backupFile(spec.databaseId, spec.restoreFrom.backupId);
      if (!fs.existsSync(backup)) throw new Error(`the data of backup ${spec.restoreFrom.backupId} is missing`);
      await this.jobs.restore(backup, file);
      snapshot = { snapshotTime: spec.restoreFrom.takenAt };
    }

    const endpoint = await this.runtimes.ensure(spec.workspaceId, runtimeShape(spec, file));
    if (snapshot.snapshotId) this.removeSnapshots(spec, file);
    return done<WorkspaceObserved>({ ...running, ...(await this.figures(file)), ...snapshot, endpoint });
  }

  async observe(spec: WorkspaceSpec, ctx: ObserveContext): Promise<Observation> {
    const seen = await this.runtimes.look(spec.workspaceId, ctx.now);
    if (seen.kind === 'lost') return seen;
    const file = this.servedFile(spec);
    return {
      kind: 'running',
      observed: { ...(file && fs.existsSync(file) ? await this.figures(file) : {}), endpoint: seen.endpoint },
    };
  }

  async metrics(spec: WorkspaceSpec, ctx: MetricsContext) {
    return readProcessMetrics(this.dataDir, spec, ctx.signal);
  }

  async removeDatabase(ref: { databaseId: string }) {
    fs.rmSync(this.layout.databaseDir(ref.databaseId), { recursive: true, force: true });
    return done({});
  }

  /** The database's graph: what read-write workspaces serve and read-only ones take snapshots of. */
  private sourceFile(spec: WorkspaceSpec): string {
    return this.layout.prepare(this.layout.graphFile(spec.databaseId));
  }

  /** The file the workspace serves: its snapshot when read-only (undefined before it has one). */
  private servedFile(spec: WorkspaceSpec): string | undefined {
    if (!spec.readOnly) return this.layout.prepare(this.layout.graphFile(spec.databaseId));
    const id = spec.observed.snapshotId;
    return id ? this.layout.snapshotFile(spec.databaseId, id) : undefined;
  }

  /** The figures of the data a workspace serves. */
  private async figures(file: string): Promise<Pick<WorkspaceObserved, 'vertexCount' | 'edgeCount' | 'topologyBytes'>> {
    const stats = await this.jobs.stats(file);
    return {
      vertexCount: stats.vertex_count,
      edgeCount: stats.edge_count,
      topologyBytes: stats.graph_topology_size_bytes,
    };
  }

  /** Removes the read-only workspace's snapshots but `keep`. */
  private removeSnapshots(spec: WorkspaceSpec, keep?: string): void {
    const dir = path.dirname(this.layout.snapshotFile(spec.databaseId, snapshotName(spec.workspaceId, 'x')));
    if (!fs.existsSync(dir)) return;
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (name.startsWith(`${spec.workspaceId}.`) && file !== keep) fs.rmSync(file, { force: true });
    }
  }
}
