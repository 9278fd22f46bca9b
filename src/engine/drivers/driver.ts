import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.js';
import type { Store } from '../../store/store.js';
import type { AccountAction, UpdateAction, WorkspaceAction } from '../../domain/actions.js';
import type { WorkspaceReading } from '../../domain/workspace-metrics.js';

/**
 * The provisioner seam. A driver turns a plain desired spec into infrastructure and reports
 * what it observed; it never sees store rows, HTTP or the clock's owner. The engine calls
 * one idempotent step at a time: the same operation may be stepped any number of times (a
 * crash in the middle is just another step), so a driver keys what it creates on the
 * operation id and finds its earlier work again from the spec and `ctx.progress`.
 *
 * A step ends in one of three ways:
 * - `done`, with an observed-state patch the engine records on the resource;
 * - `wait`: still working, step again at `until` (engine clock), keeping `progress`;
 * - `failed`: a terminal failure, recorded at once and not retried (the spec cannot be met).
 * A thrown error is a transient failure: the step is retried with back-off, and after the
 * operation's last attempt recorded as its failure.
 */

/** A workspace size from the catalog, resolved: what a driver provisions. */
export interface WorkspaceSize {
  /** The catalog name, e.g. TG-2. */
  name: string;
  cpu: number;
  memoryGb: number;
  partitions: number;
}

/** What a workspace runs at and holds, as a driver reports it. Absent fields are unchanged. */
export interface WorkspaceObserved {
  size?: WorkspaceSize;
  /** Copies of the graph running (2 with HA). */
  replicas?: number;
  version?: string;
  vertexCount?: number;
  edgeCount?: number;
  /** Bytes of graph data (vertices, edges, indexes). */
  topologyBytes?: number;
  /** When the data it serves was taken (a read-only workspace's snapshot, a restored backup), ms since the epoch. */
  snapshotTime?: number;
  /** The driver's name for the snapshot a read-only workspace serves; given back in `spec.observed`. */
  snapshotId?: string;
  /** host:port the gateway proxies the workspace's data-plane traffic to; null when nothing serves it. */
  endpoint?: string | null;
}

/** The desired state of a workspace, resolved from the catalog. */
export interface WorkspaceSpec {
  workspaceId: string;
  /** The database whose graph it holds (a read-only workspace serves a snapshot of it). */
  databaseId: string;
  /** The read-write workspace of the database, when there is one: where a read-only one's snapshots come from. */
  sourceWorkspaceId?: string;
  readOnly: boolean;
  size: WorkspaceSize;
  replicas: number;
  version: string;
  /** restore only: the backup whose data the workspace holds afterwards. */
  restoreFrom?: { backupId: string; takenAt: number; sizeBytes: number };
  /**
   * What the workspace was last observed running as (the resource's status), so a driver can
   * find its runtime again.
   */
  observed: Readonly<WorkspaceObserved>;
}

export type Progress = Record<string, unknown>;

export interface StepContext {
  /** The operation this step belongs to: the idempotency key of whatever the driver creates. */
  operationId: string;
  /** 1 for the first try, counting retries after thrown errors (not waits). */
  attempt: number;
  /** The engine clock (manual in tests); `wait.until` is on the same clock. */
  now: number;
  /** What the previous step of this operation kept (`{}` at first). */
  progress: Readonly<Progress>;
  /** Aborted when the engine stops or this process's lease on the operation runs out: stop and throw. */
  signal: AbortSignal;
  /**
   * The resource's `x_test_env`, for the fault-injection wrapper, which removes it before
   * calling the driver it wraps: drivers never read it.
   */
  testEnv?: string | undefined;
}

export type StepOutcome<O> =
  | { kind: 'done'; observed: O }
  | { kind: 'wait'; until: number; progress: Progress }
  | { kind: 'failed'; reason: string };

export const done = <O>(observed: O): StepOutcome<O> => ({ kind: 'done', observed });
export const waitUntil = (until: number, progress: Progress): StepOutcome<never> => ({ kind: 'wait', until, progress });
export const failed = (reason: string): StepOutcome<never> => ({ kind: 'failed', reason });

/** What a look at a running workspace found. */
export type Observation =
  /** It runs; `observed` may carry fresh figures (counts, size), recorded without a new version. */
  | { kind: 'running'; observed?: WorkspaceObserved }
  /** Its runtime is gone (a process died, a node was lost): the engine starts a `recover` operation. */
  | { kind: 'lost'; reason: string };

export interface ObserveContext {
  now: number;
  signal: AbortSignal;
  testEnv?: string | undefined;
}

export interface MetricsContext {
  now: number;
  /** Aborted when the reading has taken too long: stop and throw. */
  signal: AbortSignal;
}

export interface WorkspaceDriver {
  /**
   * One step toward `spec` for `actions`: a single action, or for an update several of
   * resize, ha and upgrade at once. `done` reports what the workspace now runs at.
   */
  apply(
    actions: readonly WorkspaceAction[],
    spec: WorkspaceSpec,
    ctx: StepContext,
  ): Promise<StepOutcome<WorkspaceObserved>>;
  /**
   * The reconcile hook: the engine calls it for every Active workspace about every
   * observation interval (EngineOptions.observeMs), on each process. Answer quickly; a
   * `lost` answer makes the engine start a recovery (status Resuming, condition Recover) in
   * which `apply(['recover'], …)` brings the runtime back.
   */
  observe(spec: WorkspaceSpec, ctx: ObserveContext): Promise<Observation>;
  /**
   * One step of removing a deleted database's graph data. Its workspaces were all deleted
   * before (each `delete` removed its runtime); the data outlives them until now, because a
   * read-only workspace may still attach to a database without a read-write one.
   */
  removeDatabase(ref: { databaseId: string }, ctx: StepContext): Promise<StepOutcome<Record<string, never>>>;
  /**
   * The figures of a running workspace (CPU, memory, disk, counts, request latency) for its
   * metrics. Answers a request: read quickly, and throw when the runtime does not answer.
   */
  metrics(spec: WorkspaceSpec, ctx: MetricsContext): Promise<WorkspaceReading>;
}

export interface BackupSpec {
  backupId: string;
  automatic: boolean;
  /** The workspace backed up, as it is now. */
  workspace: WorkspaceSpec;
}

export interface BackupObserved {
  sizeBytes: number;
}

/** A backup whose row is gone: its data is removed. */
export interface BackupRef {
  backupId: string;
  workspaceId: string;
  databaseId: string;
}

export interface BackupDriver {
  /** One step of taking a full, consistent backup of the workspace's graph. */
  backup(spec: BackupSpec, ctx: StepContext): Promise<StepOutcome<BackupObserved>>;
  /** One step of removing a deleted backup's data (deleted by a request or by retention). */
  remove(ref: BackupRef, ctx: StepContext): Promise<StepOutcome<Record<string, never>>>;
}

/** A customer's cloud account (a BYOC cloud provider), as the driver sets it up. */
export interface AccountSpec {
  providerId: string;
  shortId: string;
  platform: string;
  region: string;
  roleArn: string;
  roleExternalId?: string | undefined;
  secureConnection: boolean;
  /** upgrade: what to change. */
  upgrade?: {
    nodeGroups?: Readonly<Record<string, unknown>>;
    logTypes?: readonly string[];
    components?: Readonly<Record<string, string>>;
  };
}

/** The infrastructure a provisioned account holds. */
export interface AccountObserved {
  vpcId?: string;
  subnetIds?: string[];
  securityGroupId?: string;
  clusterId?: string;
  availabilityZones?: string[];
  nodeGroups?: Record<string, unknown>;
  componentVersions?: Record<string, string>;
  endpointServiceName?: string;
}

export interface RoleCheckSpec {
  platform: string;
  region: string;
  roleArn: string;
  roleExternalId?: string | undefined;
}

export type RoleCheckAnswer = { ok: true } | { ok: false; reason: string };

export interface AccountDriver {
  /** One step of provisioning the account (network, cluster, node groups). */
  provision(spec: AccountSpec, ctx: StepContext): Promise<StepOutcome<AccountObserved>>;
  /** One step of upgrading it (node groups, log types, component versions). */
  upgrade(spec: AccountSpec, ctx: StepContext): Promise<StepOutcome<AccountObserved>>;
  /** Whether the service can assume the customer's role; answers a request, so it is quick. */
  validate(check: RoleCheckSpec, ctx: { signal?: AbortSignal; testEnv?: string | undefined }): Promise<RoleCheckAnswer>;
}

/** The settings drivers read (ACACIA_* in src/config.ts, which gives them all). */
export interface DriverSettings {
  /** Where the local driver keeps its graphs and the data-plane key. */
  dataDir: string;
  /** The simulated provisioner's speed factor (0 = the next step). */
  simSpeed: number;
  /** The largest request body a data-plane process accepts (bytes). */
  bodyLimit: number;
  /** The most a data-plane process prints for one GSQL request (bytes). */
  gsqlOutputLimit: number;
}

/**
 * What the factory gives a driver: its settings (data directory, speed, …), a logger, the
 * store and the engine clock (for what a driver records of its own, e.g. which process runs a
 * workspace's runtime and its lease).
 */
export interface DriverDeps {
  config: Readonly<DriverSettings>;
  logger: Logger;
  store: Store;
  clock: Clock;
  /**
   * Tells the engine that a runtime this process runs stopped by itself, so the reconciler
   * looks (observe) at once rather than at its next interval.
   */
  runtimeLost?: () => void;
}

/** One driver of each kind, as the factory makes them for ACACIA_DRIVER. */
export interface Drivers {
  readonly name: string;
  readonly workspace: WorkspaceDriver;
  readonly backup: BackupDriver;
  readonly account: AccountDriver;
  /** Releases what the drivers hold (processes, connections) when the server stops. */
  close(): Promise<void>;
  /**
   * Stops every workspace process this server runs and forgets them, the drivers staying
   * usable: the state they served is about to be replaced (a reset, a snapshot's load). The
   * reconciler starts again what the new state says runs. Drivers without processes have none.
   */
  quiesce?(): Promise<void>;
}

/** Re-exported so drivers need import only this module. */
export type { AccountAction, UpdateAction, WorkspaceAction, WorkspaceReading };
