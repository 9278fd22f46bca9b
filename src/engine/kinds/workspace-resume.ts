import type { KindDeps } from './kind.js';
import { workspaceKind } from './workspace-kind.js';

/** workspace.resume: Resuming → Active; its auto-stop time starts afresh. */
export const workspaceResume = (deps: KindDeps) =>
  workspaceKind(deps, {
    op: 'resume',
    actions: () => ['resume'],
    completed: (_trx, _ws, _params, _observed, now) => ({ last_activity_at: now }),
  });
