import type { KindDeps } from './kind.js';
import { workspaceKind } from './workspace-kind.js';

/** workspace.pause: Pausing → Stopped, or Idle when it starts on access. */
export const workspacePause = (deps: KindDeps) => workspaceKind(deps, { op: 'pause', actions: () => ['pause'] });
