import type { WorkspaceAction } from '../../domain/actions.js';
import { workspaceParams, type WorkspaceOperation, type WorkspaceParamsOf } from '../../domain/operation-params.js';
import {
  applyWorkspaceOutcome,
  failedChanges,
  settledChanges,
  workspaceKind as kindName,
} from '../../domain/workspace-operations.js';
import { findDatabase } from '../../store/repositories/databases.js';
import type { Operation } from '../../store/repositories/operations.js';
import { findWorkspaceById, type Workspace, type WorkspaceChanges } from '../../store/repositories/workspaces.js';
import type { Executor, Tx } from '../../store/store.js';
import { done, failed, type WorkspaceObserved, type WorkspaceSpec } from '../drivers/driver.js';
import { SpecError, observedChanges, workspaceSpec } from '../specs.js';
import type { KindDeps, OperationKind } from './kind.js';

type Overrides = Partial<Pick<WorkspaceSpec, 'version' | 'restoreFrom'>>;

/** What one workspace operation kind declares; the rest is common to all of them. */
export interface WorkspaceKindDef<K extends WorkspaceOperation> {
  op: K;
  /** The driver actions the operation performs. */
  actions(params: WorkspaceParamsOf<K>): readonly WorkspaceAction[];
  /** What the spec asks beyond the workspace's desired state, or a reason it cannot be met. */
  spec?(db: Executor, ws: Workspace, params: WorkspaceParamsOf<K>): Promise<Overrides | string>;
  /** Changes on completion beyond the observed state and the stable status. */
  completed?(
    trx: Executor,
    ws: Workspace,
    params: WorkspaceParamsOf<K>,
    observed: WorkspaceObserved,
    now: number,
  ): WorkspaceChanges | Promise<WorkspaceChanges>;
  /** Changes on failure beyond Failed (and what it asked being given back). */
  failed?(params: WorkspaceParamsOf<K>, message: string): WorkspaceChanges;
  /** Replaces the whole completion (delete removes the row). */
  complete?(trx: Tx, op: Operation<WorkspaceParamsOf<K>>): Promise<void>;
}

/**
 * A workspace operation kind: each step builds the spec from the workspace as it is now and
 * asks the workspace driver; completion writes the driver's observed state and the stable
 * status; failure marks the workspace Failed. Once the workspace is gone there is nothing to do.
 */
export function workspaceKind<K extends WorkspaceOperation>(
  { store, drivers, catalog }: KindDeps,
  def: WorkspaceKindDef<K>,
): OperationKind<(typeof workspaceParams)[K], WorkspaceObserved> {
  return {
    kind: kindName(def.op),
    params: workspaceParams[def.op],
    async run(op, { now, signal }) {
      const params = op.params as WorkspaceParamsOf<K>;
      const ws = await findWorkspaceById(store.db, op.resource_id);
      if (!ws) return done({});
      const overrides = def.spec ? await def.spec(store.db, ws, params) : {};
      if (typeof overrides === 'string') return failed(overrides);
      let spec: WorkspaceSpec;
      try {
        spec = workspaceSpec(ws, catalog, { ...(await sourceOf(store.db, ws)), ...overrides });
      } catch (err) {
        if (err instanceof SpecError) return failed(err.message);
        throw err;
      }
      return drivers.workspace.apply(def.actions(params), spec, {
        operationId: op.id,
        attempt: op.attempt,
        now,
        progress: op.progress,
        signal,
        testEnv: ws.x_test_env ?? undefined,
      });
    },
    async complete(trx, op, observed, now) {
      const params = op.params as WorkspaceParamsOf<K>;
      if (def.complete) return def.complete(trx, op as Operation<WorkspaceParamsOf<K>>);
      await applyWorkspaceOutcome(trx, op.resource_id, now, async (ws) => ({
        ...observedChanges(observed, now),
        ...(await def.completed?.(trx.db, ws, params, observed, now)),
        ...settledChanges(def.op, ws),
      }));
    },
    async fail(trx, op, params, message, now) {
      await applyWorkspaceOutcome(trx, op.resource_id, now, () => ({
        ...(params && def.failed?.(params as WorkspaceParamsOf<K>, message)),
        ...failedChanges(op.id, message),
      }));
    },
  };
}

/** A read-only workspace's snapshots come from its database's read-write workspace. */
async function sourceOf(db: Executor, ws: Workspace): Promise<Pick<WorkspaceSpec, 'sourceWorkspaceId'>> {
  if (ws.is_rw) return {};
  const database = await findDatabase(db, ws.org_id, ws.database_id);
  return database?.rw_workspace_id ? { sourceWorkspaceId: database.rw_workspace_id } : {};
}
