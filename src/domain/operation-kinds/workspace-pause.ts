import { paramsOf, started, workspaceOperationKind } from './kind.js';

/** workspace.pause: Pausing → Stopped, or Idle when it starts on access. */
export const workspacePause = workspaceOperationKind({
  op: 'pause',
  params: paramsOf('pause', started),
  transition: { from: ['Active', 'Failed'], via: 'Pausing', condition: 'Pause', verb: 'pause' },
  steps: { pause: 20 },
  settles: (ws) => (ws.enable_auto_start ? 'Idle' : 'Stopped'),
});
