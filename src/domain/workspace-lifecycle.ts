import { conflict } from './errors.js';
import { stableStatuses, type WorkspaceStatus } from '../schemas/vocabulary.js';
import type { WorkspaceOperation } from './operation-params.js';

export type { WorkspaceOperation };

export { displayStatus, stableStatuses, workspaceStatuses, type WorkspaceStatus } from '../schemas/vocabulary.js';

interface Transition {
  /** States the operation may start from. */
  from: readonly WorkspaceStatus[];
  /** Status while it runs. */
  via: WorkspaceStatus;
  /** `condition_type` while it runs. */
  condition: string;
  /** What the caller is doing, for error messages. */
  verb: string;
}

export const transitions: Record<WorkspaceOperation, Transition> = {
  create: { from: [], via: 'Creating', condition: 'Create', verb: 'create' },
  pause: { from: ['Active', 'Failed'], via: 'Pausing', condition: 'Pause', verb: 'pause' },
  resume: { from: ['Stopped', 'Idle'], via: 'Resuming', condition: 'Resume', verb: 'resume' },
  update: { from: ['Active'], via: 'Updating', condition: 'Update', verb: 'resize, change HA or upgrade' },
  restore: { from: ['Active'], via: 'Restoring', condition: 'Restore', verb: 'restore' },
  refresh: { from: ['Active'], via: 'Refreshing', condition: 'Refresh', verb: 'refresh' },
  // Started by the reconciler only, when the driver reports a running workspace's runtime gone.
  recover: { from: ['Active'], via: 'Resuming', condition: 'Recover', verb: 'recover' },
  delete: { from: stableStatuses, via: 'Deleting', condition: 'Delete', verb: 'delete' },
};

export const NORMAL_CONDITION = 'Normal';

/** Throws 409 naming the current state and the states that would allow the operation. */
export function requireStatus(status: string, op: WorkspaceOperation): void {
  const t = transitions[op];
  if (!t.from.includes(status as WorkspaceStatus)) {
    throw conflict('status', `the workspace is ${status}; to ${t.verb} it must be ${t.from.join(' or ')}`);
  }
}

/** The stable status an operation ends in. */
export function finalStatus(op: WorkspaceOperation, enableAutoStart: boolean): WorkspaceStatus {
  return op === 'pause' ? (enableAutoStart ? 'Idle' : 'Stopped') : 'Active';
}
