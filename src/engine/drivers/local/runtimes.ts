import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import {
  dataPlaneSecret,
  isPidAlive,
  socketFolder,
  startDataPlane,
  stopPid,
  type DataPlaneProcess,
} from '../../../dataplane/index.js';
import type { Clock } from '../../../domain/clock.js';
import {
  claimRuntime,
  findRuntime,
  releaseRuntime,
  renewRuntimes,
  type WorkspaceRuntime,
} from '../../../store/repositories/workspace-runtimes.js';
import type { Store } from '../../../store/store.js';
import { shapeKey, type RuntimeShape } from './resources.js';

export interface RuntimeDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  dataDir: string;
  /** The largest request body a data-plane process accepts (the gateway's limit). */
  bodyLimit: number;
  /** The most a process prints for one GSQL request (bytes). */
  gsqlOutputLimit: number;
  /** How long a runtime's record stays its owner's without renewal (engine clock). */
  leaseMs: number;
  /** A process this one runs exited by itself: the engine should look at once. */
  runtimeLost: () => void;
}

/** What a look at a workspace's runtime found. */
export type RuntimeLook = { kind: 'running'; endpoint: string } | { kind: 'lost'; reason: string };

interface Child {
  process: DataPlaneProcess;
  /** Set when this process stops it: its exit is then no loss. */
  stopping: boolean;
}

const endpointOf = (row: Pick<WorkspaceRuntime, 'host' | 'port'>) => `${row.host}:${row.port}`;

/**
 * The data-plane processes of the workspaces, as child processes of this Acacia process, and
 * their records in the store (workspace_runtimes): which process owns each, its pid and port,
 * and a lease the owner renews each time the reconciler looks. Any Acacia process sharing the
 * store and the data directory may be asked to start, stop or look at any workspace: it finds
 * the record, stops another's process on this host by its pid, and takes over a workspace
 * whose owner stopped renewing (its lease expired on the engine clock, and it is not running
 * on this host).
 */
export class LocalRuntimes {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly host = hostname();
  private readonly children = new Map<string, Child>();
  private closing = false;

  constructor(private readonly deps: RuntimeDeps) {}

  /**
   * The workspace served with `shape`: the process serving it already when it runs with that
   * shape, else a new one (the old one stopped first). Returns its endpoint, host:port.
   */
  async ensure(workspaceId: string, shape: RuntimeShape): Promise<string> {
    const { store, clock } = this.deps;
    const row = await findRuntime(store.db, workspaceId);
    const now = clock.now();
    if (row && row.shape === shapeKey(shape) && this.serves(row, now)) {
      if (row.owner === this.owner) await renewRuntimes(store.db, this.owner, [workspaceId], now + this.deps.leaseMs);
      return endpointOf(row);
    }
    // Whatever served it is stopped and its record removed: the new one is recorded only if no
    // other process has recorded its own meanwhile.
    if (row) await this.stopRecorded(row);
    await this.stopChild(workspaceId);
    const started = await this.start(workspaceId, shape);
    const claimed = await claimRuntime(
      store.db,
      {
        workspace_id: workspaceId,
        owner: this.owner,
        owner_host: this.host,
        owner_pid: process.pid,
        pid: started.pid,
        host: started.host,
        port: started.port,
        shape: shapeKey(shape),
        started_at: now,
        lease_expires_at: now + this.deps.leaseMs,
      },
      undefined,
    );
    if (!claimed) {
      await this.stopChild(workspaceId);
      throw new Error('another Acacia process started the workspace meanwhile; looking again');
    }
    return `${started.host}:${started.port}`;
  }

  /** Stops whatever serves the workspace, wherever on this host it runs, and forgets it. */
  async stop(workspaceId: string): Promise<void> {
    const row = await findRuntime(this.deps.store.db, workspaceId);
    if (row) await this.stopRecorded(row);
    await this.stopChild(workspaceId);
  }

  /** Whether the workspace is served; renews the lease of a process this one runs. */
  async look(workspaceId: string, now: number): Promise<RuntimeLook> {
    const row = await findRuntime(this.deps.store.db, workspaceId);
    if (!row) return { kind: 'lost', reason: 'no data-plane process serves it' };
    if (row.owner === this.owner) {
      if (!this.runsMine(row)) return { kind: 'lost', reason: `its data-plane process (pid ${row.pid}) exited` };
      await renewRuntimes(this.deps.store.db, this.owner, [workspaceId], now + this.deps.leaseMs);
      return { kind: 'running', endpoint: endpointOf(row) };
    }
    if (row.owner_host === this.host && !isDataPlane(row.pid))
      return { kind: 'lost', reason: `its data-plane process (pid ${row.pid}) exited` };
    if (!this.ownerAlive(row, now))
      return { kind: 'lost', reason: `its owner ${row.owner} stopped renewing its lease` };
    return { kind: 'running', endpoint: endpointOf(row) };
  }

  /** The pids of the processes this Acacia process runs, by workspace. */
  pids(): Map<string, number> {
    return new Map([...this.children].map(([id, c]) => [id, c.process.pid]));
  }

  /** Stops every process this one runs and removes their records (the server stops). */
  async close(): Promise<void> {
    this.closing = true;
    await this.stopAll();
  }

  /** Stops every process this one runs and removes their records; new ones may start afterwards. */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.children.keys()].map(async (workspaceId) => {
        const pid = this.children.get(workspaceId)?.process.pid;
        await this.stopChild(workspaceId);
        if (pid !== undefined)
          await releaseRuntime(this.deps.store.db, workspaceId, pid).catch((err: unknown) =>
            this.deps.logger.warn({ err, workspace: workspaceId }, 'could not remove the runtime record'),
          );
      }),
    );
  }

  private runsMine(row: WorkspaceRuntime): boolean {
    const child = this.children.get(row.workspace_id);
    return child !== undefined && child.process.pid === row.pid && child.process.isAlive();
  }

  /**
   * Another process's owner is alive while its lease runs; past it, only when it still runs
   * on this host (a clock moved on faster than it renews, as the manual clock does).
   */
  private ownerAlive(row: WorkspaceRuntime, now: number): boolean {
    return row.lease_expires_at > now || (row.owner_host === this.host && isPidAlive(row.owner_pid));
  }

  private serves(row: WorkspaceRuntime, now: number): boolean {
    if (row.owner === this.owner) return this.runsMine(row);
    return this.ownerAlive(row, now) && (row.owner_host !== this.host || isDataPlane(row.pid));
  }

  /** Stops the recorded process (this one's child, or by pid on this host) and removes the record. */
  private async stopRecorded(row: WorkspaceRuntime): Promise<void> {
    if (row.owner === this.owner) await this.stopChild(row.workspace_id);
    else if (row.owner_host === this.host && isDataPlane(row.pid)) await stopPid(row.pid);
    else if (row.owner_host !== this.host)
      this.deps.logger.warn(
        { workspace: row.workspace_id, owner: row.owner },
        'the data-plane process runs on another host and cannot be stopped from here',
      );
    await releaseRuntime(this.deps.store.db, row.workspace_id, row.pid);
  }

  private async stopChild(workspaceId: string): Promise<void> {
    const child = this.children.get(workspaceId);
    if (!child) return;
    child.stopping = true;
    await child.process.stop();
    if (this.children.get(workspaceId) === child) this.children.delete(workspaceId);
  }

  private async start(workspaceId: string, shape: RuntimeShape): Promise<DataPlaneProcess> {
    const { logger, dataDir, bodyLimit, gsqlOutputLimit } = this.deps;
    if (this.closing) throw new Error('the server is stopping');
    const entry: { child?: Child } = {};
    const started = await startDataPlane({
      storeFile: shape.storeFile,
      readOnly: shape.readOnly,
      secret: dataPlaneSecret(dataDir, workspaceId),
      socketFolder: socketFolder(dataDir),
      tgVersion: shape.version,
      bodyLimitBytes: bodyLimit,
      gsqlOutputLimitBytes: gsqlOutputLimit,
      maxHeapMb: shape.maxHeapMb,
      onLog: (line) => logger.debug({ workspace: workspaceId, dataPlane: line }, 'data-plane log'),
      onExit: (code, signal) => {
        const child = entry.child;
        if (!child || child.stopping || this.closing) return;
        if (this.children.get(workspaceId) === child) this.children.delete(workspaceId);
        logger.warn({ workspace: workspaceId, pid: child.process.pid, code, signal }, 'data-plane process exited');
        this.deps.runtimeLost();
      },
    });
    entry.child = { process: started, stopping: false };
    this.children.set(workspaceId, entry.child);
    logger.info({ workspace: workspaceId, pid: started.pid, port: started.port }, 'data-plane process started');
    return started;
  }
}

/**
 * Whether `pid` is a data-plane process: a pid recorded long ago may have been reused by
 * something else, which must not be told to stop. Where /proc is missing, a live pid is taken
 * for one.
 */
function isDataPlane(pid: number): boolean {
  if (!isPidAlive(pid)) return false;
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.includes('--store') && args.some((a) => /dataplane[/\\]main\.[jt]s$/.test(a));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' && !fs.existsSync('/proc/self');
  }
}
