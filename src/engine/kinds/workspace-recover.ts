import type { KindDeps } from './kind.js';
import { workspaceKind } from './workspace-kind.js';

/**
 * workspace.recover: the reconciler found the runtime of an Active workspace gone (the
 * driver's observe said so); Resuming (condition Recover) → Active once the driver has
 * brought it back.
 */
export const workspaceRecover = (deps: KindDeps) => workspaceKind(deps, { op: 'recover', actions: () => ['recover'] });
