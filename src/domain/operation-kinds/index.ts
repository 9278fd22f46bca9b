import type { Static } from '@sinclair/typebox';
import type { WorkspaceOperationKind } from './kind.js';
import { workspaceUpgrade } from './workspace-upgrade.js';
import { workspaceCreate } from './workspace-create.js';
import { workspaceDelete } from './workspace-delete.js';
import { workspacePause } from './workspace-pause.js';
import { workspaceRecover } from './workspace-recover.js';
import { workspaceRefresh } from './workspace-refresh.js';
import { workspaceRestore } from './workspace-restore.js';
import { workspaceResume } from './workspace-resume.js';
import { workspaceUpdate } from './workspace-update.js';

/**
 * Every workspace operation kind, one module each: the one list the domain starts them from
 * and the engine runs them from (docs/architecture.md, "Adding an operation kind").
 */
export const workspaceOperationKinds = [
  workspaceCreate,
  workspacePause,
  workspaceResume,
  workspaceUpdate,
  workspaceUpgrade,
  workspaceRefresh,
  workspaceRestore,
  workspaceRecover,
  workspaceDelete,
] as const;

type Listed = (typeof workspaceOperationKinds)[number];

/** The name of each kind of operation that moves a workspace through a transitional status. */
export type WorkspaceOperation = Listed['op'];
/** The parameters of any workspace operation, told apart by `op`. */
export type WorkspaceOpParams = Static<Listed['params']>;
export type WorkspaceParamsOf<K extends WorkspaceOperation> = Extract<WorkspaceOpParams, { op: K }>;
/** The driver actions a workspace operation may run. */
export type WorkspaceAction = StepsOf<Listed>;
type StepsOf<K> = K extends { readonly steps: infer R } ? keyof R & string : never;

/** A kind with its parameters' and actions' types erased, as the list is looked up by name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyWorkspaceKind = WorkspaceOperationKind<WorkspaceOperation, any, any>;

const byOp = new Map<string, AnyWorkspaceKind>(workspaceOperationKinds.map((k) => [k.op, k as AnyWorkspaceKind]));

/** The declaration of a kind, by its name. */
export function workspaceOperationKindOf(op: WorkspaceOperation): AnyWorkspaceKind {
  return byOp.get(op)!;
}

/** The operation's stored kind: `workspace.<op>`. */
export const workspaceKindName = (op: WorkspaceOperation) => `workspace.${op}`;

/** Every driver action of a workspace operation, in the order the kinds are listed, each once. */
export const workspaceActions: readonly WorkspaceAction[] = [
  ...new Set(workspaceOperationKinds.flatMap((k) => Object.keys(k.steps) as WorkspaceAction[])),
];

/** How long the simulated driver takes for each workspace action (seconds at ACACIA_SIM_SPEED=1). */
export const simulatedWorkspaceSeconds = Object.fromEntries(
  workspaceOperationKinds.flatMap((k) => Object.entries(k.steps)),
) as Readonly<Record<WorkspaceAction, number>>;

export type { Transition, WorkspaceOperationKind } from './kind.js';
export { updateActions, type UpdateAction } from './workspace-update.js';
