import { Type } from '@sinclair/typebox';
import { OneOf, paramsOf, started, workspaceOperationKind } from './kind.js';

/** What an update may change: the infrastructure actions it combines, with their simulated seconds. */
const steps = { resize: 60, ha: 45, upgrade: 90 };
export type UpdateAction = keyof typeof steps;
export const updateActions = Object.keys(steps) as UpdateAction[];

/**
 * workspace.update: resize, HA change and upgrade, alone or together; Updating → Active. The
 * size, HA and version asked for become the workspace's desired state while it runs; what it
 * runs at afterwards is what the driver reports; a pending upgrade it fulfils is cleared.
 */
export const workspaceUpdate = workspaceOperationKind({
  op: 'update',
  params: paramsOf('update', {
    /** What changes: the driver actions of this update. */
    actions: Type.Array(OneOf(updateActions), { minItems: 1, maxItems: updateActions.length }),
    /** resize: the size asked for (absent on updates stored before desired and observed size were kept apart). */
    workspace_type_name: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    /** ha: whether HA was asked for (absent likewise). */
    enable_ha: Type.Optional(Type.Boolean()),
    /** upgrade: the version to run. */
    tg_version: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    /** Set when a maintenance window started the upgrade. */
    maintenance: Type.Optional(Type.Boolean()),
    ...started,
  }),
  transition: { from: ['Active'], via: 'Updating', condition: 'Update', verb: 'resize, change HA or upgrade' },
  steps,
  actions: (params) => params.actions,
  requests: (params) => ({
    desired_size: params.workspace_type_name ?? null,
    desired_enable_ha: params.enable_ha ?? null,
    upgrade_tg_version: params.tg_version ?? null,
  }),
  completed: (_trx, ws, params, observed, now) => {
    const running = observed.tg_version ?? ws.tg_version;
    return {
      ...(ws.desired_tg_version === running ? { desired_tg_version: null, maintenance_due_at: null } : {}),
      ...(params.maintenance && params.tg_version === running ? { last_maintenance: now } : {}),
    };
  },
});
