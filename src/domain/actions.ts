import { workspaceActions, type WorkspaceAction } from './operation-kinds/index.js';

/**
 * What a provisioner driver is asked to do: one closed set of names shared by the domain
 * (which operations exist), the drivers (what a step does) and fault injection (what
 * `fail:<action>` and `slow:<action>=…` may name). A workspace's actions are its operation
 * kinds' steps (src/domain/operation-kinds/).
 */

export { updateActions, workspaceActions, type UpdateAction, type WorkspaceAction } from './operation-kinds/index.js';

/** Steps on a workspace's backups. */
export const backupActions = ['backup'] as const;
export type BackupAction = (typeof backupActions)[number];

/** The reconciler's look at a running workspace: is its runtime still there? */
export const observeAction = 'observe' as const;

/** Steps on a customer's cloud account (a BYOC cloud provider). */
export const accountActions = ['provision', 'upgrade', 'validate'] as const;
export type AccountAction = (typeof accountActions)[number];

export type Action = WorkspaceAction | BackupAction | typeof observeAction | AccountAction;

/** The actions a workspace's `x_test_env` may name: its own steps, its backups' and the reconciler's look. */
export const workspaceFaultActions: readonly Action[] = [...workspaceActions, ...backupActions, observeAction];

/** The actions a cloud provider's `x_test_env` may name. */
export const accountFaultActions: readonly Action[] = accountActions;
