import type { KindDeps } from './kind.js';
import { workspaceKind } from './workspace-kind.js';

/**
 * workspace.update: resize, HA change and upgrade, alone or together; Updating → Active. What
 * it runs at afterwards is what the driver reports; a pending upgrade it fulfils is cleared.
 */
export const workspaceUpdate = (deps: KindDeps) =>
  workspaceKind(deps, {
    op: 'update',
    actions: (params) => params.actions,
    spec: async (_db, _ws, params) => (params.tg_version !== undefined ? { version: params.tg_version } : {}),
    completed: (_trx, ws, params, observed, now) => {
      const running = observed.version ?? ws.tg_version;
      return {
        ...(ws.desired_tg_version === running ? { desired_tg_version: null, maintenance_due_at: null } : {}),
        ...(params.maintenance && params.tg_version === running ? { last_maintenance: now } : {}),
      };
    },
  });
