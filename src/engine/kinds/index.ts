import { backupHandlers } from './backup.js';
import { cloudProviderHandlers } from './cloud-provider.js';
import type { HandlerDeps, OperationHandler } from './handler.js';
import { workspaceHandlers } from './workspace.js';

/** Every operation kind the engine runs. */
export function allHandlers(deps: HandlerDeps): Map<string, OperationHandler> {
  const handlers = [...workspaceHandlers(deps), ...backupHandlers(deps), ...cloudProviderHandlers(deps)];
  return new Map(handlers.map((h) => [h.kind, h]));
}

export type { OperationHandler, HandlerDeps };
