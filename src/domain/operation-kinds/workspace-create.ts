import { paramsOf, workspaceOperationKind } from './kind.js';

/** workspace.create: Creating → Active; a new workspace starts its auto-stop time afresh. */
export const workspaceCreate = workspaceOperationKind({
  op: 'create',
  params: paramsOf('create'),
  transition: { from: [], via: 'Creating', condition: 'Create', verb: 'create' },
  steps: { create: 90 },
  completed: (_trx, _ws, _params, _observed, now) => ({ last_activity_at: now }),
});
