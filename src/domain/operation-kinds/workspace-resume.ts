import { paramsOf, started, workspaceOperationKind } from './kind.js';

/** workspace.resume: Resuming → Active; its auto-stop time starts afresh. */
export const workspaceResume = workspaceOperationKind({
  op: 'resume',
  params: paramsOf('resume', started),
  transition: { from: ['Stopped', 'Idle'], via: 'Resuming', condition: 'Resume', verb: 'resume' },
  steps: { resume: 30 },
  completed: (_trx, _ws, _params, _observed, now) => ({ last_activity_at: now }),
});
