import { Type } from '@sinclair/typebox';
import { paramsOf, workspaceOperationKind } from './kind.js';

/**
 * workspace.recover: started by the reconciler only, when the driver's observe reports the
 * runtime of an Active workspace gone; Resuming (condition Recover) → Active once the driver
 * has brought it back.
 */
export const workspaceRecover = workspaceOperationKind({
  op: 'recover',
  params: paramsOf('recover', { reason: Type.String({ maxLength: 1024 }) }),
  transition: { from: ['Active'], via: 'Resuming', condition: 'Recover', verb: 'recover' },
  steps: { recover: 30 },
});
