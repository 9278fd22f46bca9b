import type { Operation } from '../store/repositories/operations.js';
import type { Workspace } from '../store/repositories/workspaces.js';
import type { CloudProviderRow } from '../store/repositories/cloud-providers.js';
import type { CloudProviderOpParams, RoleCheck } from '../domain/cloud-provider-operations.js';
import { parseTestEnv } from '../domain/test-env.js';
import type { WorkspaceOpParams } from '../domain/workspace-operations.js';
import type { ProvisionerDriver, StepResult } from './driver.js';
import { simulatedInfrastructure, simulatedRoleCheck } from './simulated-provider.js';

/** Realistic durations in seconds at ACACIA_SIM_SPEED=1. */
export const simulatedSeconds: Record<string, number> = {
  create: 90, provision: 120, pause: 20, resume: 30, update: 60, resize: 60, ha: 45, upgrade: 90, refresh: 30, restore: 60, backup: 30, delete: 20,
};

/**
 * Models the infrastructure: each step finishes after a duration scaled by the speed
 * (0 = on the next tick), unless the workspace's x_test_env injects a failure or a delay.
 */
export class SimulatedDriver implements ProvisionerDriver {
  readonly name = 'simulated';

  constructor(private readonly speed: number) {}

  async runWorkspaceStep(op: Operation, ws: Workspace | undefined, now: number): Promise<StepResult> {
    const params = op.params as WorkspaceOpParams;
    const actions = params.actions?.length ? params.actions : [params.op];
    const env = parseTestEnv(ws?.x_test_env);
    const failing = actions.find((a) => env.fail.has(a) || (params.op === 'update' && env.fail.has('update')));
    if (failing) throw new Error(`simulated ${failing} failure (x_test_env)`);
    const duration = Math.max(...actions.map((a) => env.slow.get(a) ?? (simulatedSeconds[a] ?? 30) * 1000 * this.speed));
    return waitUntilReady(op, now, duration) ?? { kind: 'done', result: env.topologyBytes !== undefined ? { topologyBytes: env.topologyBytes } : {} };
  }

  /** A backup is as large as the workspace's graph; fault injection by `fail:backup` / `slow:backup`. */
  async runBackupStep(op: Operation, ws: Workspace | undefined, now: number): Promise<StepResult> {
    if (!ws) throw new Error('the workspace no longer exists');
    const env = parseTestEnv(ws.x_test_env);
    if (env.fail.has('backup')) throw new Error('simulated backup failure (x_test_env)');
    const duration = env.slow.get('backup') ?? simulatedSeconds.backup! * 1000 * this.speed;
    return waitUntilReady(op, now, duration) ?? { kind: 'done', result: { backupBytes: ws.graph_topology_size_bytes } };
  }

  /** Provision or upgrade a BYOC account; fault injection through the provider's x_test_env. */
  async runCloudProviderStep(op: Operation, provider: CloudProviderRow | undefined, now: number): Promise<StepResult> {
    const action = (op.params as CloudProviderOpParams).op;
    const env = parseTestEnv(provider?.x_test_env);
    if (env.fail.has(action)) throw new Error(`simulated ${action} failure (x_test_env)`);
    const duration = env.slow.get(action) ?? (simulatedSeconds[action] ?? 30) * 1000 * this.speed;
    return waitUntilReady(op, now, duration) ?? { kind: 'done', result: action === 'provision' && provider ? { provider: simulatedInfrastructure(provider) } : {} };
  }

  async canAssumeRole(check: RoleCheck) {
    return simulatedRoleCheck(check);
  }
}

/** A wait until the step's ready time (fixed at its first run, so retries keep it), or undefined once reached. */
function waitUntilReady(op: Operation, now: number, duration: number): StepResult | undefined {
  const readyAt = typeof op.progress.ready_at === 'number' ? op.progress.ready_at : now + duration;
  return readyAt > now ? { kind: 'wait', until: readyAt, progress: { ...op.progress, ready_at: readyAt } } : undefined;
}
