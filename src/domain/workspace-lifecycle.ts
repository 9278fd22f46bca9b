import { conflict } from './errors.js';

/** Workspace `status` values (DESIGN §7). */
export const workspaceStatuses = [
  'Creating', 'Active', 'Pausing', 'Stopped', 'Idle', 'Resuming', 'Updating', 'Restoring', 'Refreshing', 'Deleting', 'Failed',
] as const;
export type WorkspaceStatus = (typeof workspaceStatuses)[number];

export const stableStatuses: readonly WorkspaceStatus[] = ['Active', 'Stopped', 'Idle', 'Failed'];

/** Operations that move a workspace through a transitional status. */
export type WorkspaceOperation = 'create' | 'pause' | 'resume' | 'update' | 'restore' | 'refresh' | 'delete';

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
  delete: { from: stableStatuses, via: 'Deleting', condition: 'Delete', verb: 'delete' },
};

export const NORMAL_CONDITION = 'Normal';

/** Human labels for `display_status`. */
export const displayStatus: Record<WorkspaceStatus, string> = {
  Creating: 'Creating',
  Active: 'Ready',
  Pausing: 'Stopping',
  Stopped: 'Stopped',
  Idle: 'Idle (starts on access)',
  Resuming: 'Starting',
  Updating: 'Updating',
  Restoring: 'Restoring',
  Refreshing: 'Refreshing',
  Deleting: 'Deleting',
  Failed: 'Failed',
};

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
