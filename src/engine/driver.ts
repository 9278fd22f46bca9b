import type { Operation } from '../store/repositories/operations.js';
import type { Workspace } from '../store/repositories/workspaces.js';
import type { CloudProviderRow } from '../store/repositories/cloud-providers.js';
import type { ProvisionedInfrastructure, RoleVerifier } from '../domain/cloud-provider-operations.js';

/** What one step of an operation came to. */
export type StepResult =
  | { kind: 'done'; result?: { topologyBytes?: number; backupBytes?: number; provider?: ProvisionedInfrastructure } }
  /** Infrastructure is still working: run the operation again at `until`. */
  | { kind: 'wait'; until: number; progress: Record<string, unknown> };

/**
 * Provisions and changes the infrastructure behind workspaces and BYOC cloud providers. A
 * step must be idempotent: after a crash the same operation runs again from its stored progress.
 */
export interface ProvisionerDriver extends RoleVerifier {
  readonly name: string;
  runWorkspaceStep(op: Operation, ws: Workspace | undefined, now: number): Promise<StepResult>;
  /** One step of taking a full backup of the workspace; done carries its size in bytes. */
  runBackupStep(op: Operation, ws: Workspace | undefined, now: number): Promise<StepResult>;
  /** One step of provisioning or upgrading a customer's cloud account. */
  runCloudProviderStep(op: Operation, provider: CloudProviderRow | undefined, now: number): Promise<StepResult>;
}
