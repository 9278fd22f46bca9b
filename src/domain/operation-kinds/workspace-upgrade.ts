import { Type } from '@sinclair/typebox';
import { paramsOf, started, workspaceOperationKind } from './kind.js';

/**
 * What a finished or abandoned upgrade leaves of the request that scheduled it: nothing. An
 * upgrade started now (POST …/upgrade) clears a waiting one the same way.
 */
export const noneWaiting = {
  desired_tg_version: null,
  maintenance_due_at: null,
  upgrade_requested_at: null,
  upgrade_requested_by: null,
} as const;

/**
 * workspace.upgrade: Updating (condition Upgrade) → Active at the new version, started by
 * POST …/upgrade or by the maintenance window of a scheduled one. The version asked for is
 * the workspace's desired state while it runs. A driver failure (after the worker's retries)
 * leaves it Active at the version it ran, the reason in `err_message` and the operation
 * failed; the scheduled request is dropped, so a new one is a deliberate choice.
 */
export const workspaceUpgrade = workspaceOperationKind({
  op: 'upgrade',
  params: paramsOf('upgrade', {
    /** The version to run. */
    tg_version: Type.String({ minLength: 1, maxLength: 32 }),
    /** The version it ran when the upgrade started. */
    from_version: Type.String({ minLength: 1, maxLength: 32 }),
    /** Set when a maintenance window started it. */
    maintenance: Type.Optional(Type.Boolean()),
    ...started,
  }),
  transition: { from: ['Active'], via: 'Updating', condition: 'Upgrade', verb: 'upgrade' },
  steps: { upgrade: 90 },
  requests: (params) => ({ upgrade_tg_version: params.tg_version }),
  failsTo: 'Active',
  completed: (_trx, ws, params, observed, now) => {
    const running = observed.tg_version ?? ws.tg_version;
    return {
      // A scheduled upgrade replaced meanwhile by a newer target stays waiting.
      ...(ws.desired_tg_version === null || ws.desired_tg_version === running ? noneWaiting : {}),
      ...(params.maintenance && params.tg_version === running ? { last_maintenance: now } : {}),
    };
  },
  failed: (params, message) => ({
    ...noneWaiting,
    err_message: `the upgrade from ${params.from_version} to ${params.tg_version} failed: ${message}`.slice(0, 4096),
  }),
});
