import type { KindDeps } from './kind.js';
import { workspaceKind } from './workspace-kind.js';

/** workspace.create: Creating → Active; a new workspace starts its auto-stop time afresh. */
export const workspaceCreate = (deps: KindDeps) =>
  workspaceKind(deps, {
    op: 'create',
    actions: () => ['create'],
    completed: (_trx, _ws, _params, _observed, now) => ({ last_activity_at: now }),
  });
