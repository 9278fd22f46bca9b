import { conflict } from './errors.js';
import type { WorkspaceStatus } from '../schemas/vocabulary.js';
import { workspaceOperationKindOf, type WorkspaceOperation } from './operation-kinds/index.js';

export type { WorkspaceOperation };

export { displayStatus, stableStatuses, workspaceStatuses, type WorkspaceStatus } from '../schemas/vocabulary.js';

export const NORMAL_CONDITION = 'Normal';

/** Throws 409 naming the current state and the states that would allow the operation (its kind's transition). */
export function requireStatus(status: string, op: WorkspaceOperation): void {
  const t = workspaceOperationKindOf(op).transition;
  if (!t.from.includes(status as WorkspaceStatus)) {
    throw conflict('status', `the workspace is ${status}; to ${t.verb} it must be ${t.from.join(' or ')}`);
  }
}
