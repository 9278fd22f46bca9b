import type { AccountAction, WorkspaceAction } from '../../../domain/actions.js';
import { simulatedWorkspaceSeconds } from '../../../domain/operation-kinds/index.js';
import { waitUntil, type StepContext, type StepOutcome } from '../driver.js';

/**
 * Realistic durations in seconds at ACACIA_SIM_SPEED=1: a workspace action's is declared by
 * its operation kind (src/domain/operation-kinds/), a backup's and an account's here.
 */
export const backupSeconds = 30;
export const accountSeconds: Record<Exclude<AccountAction, 'validate'>, number> = { provision: 120, upgrade: 90 };

/** A workspace step takes as long as the longest of its actions. */
export const workspaceSeconds = (actions: readonly WorkspaceAction[]): number =>
  Math.max(...actions.map((a) => simulatedWorkspaceSeconds[a]));

/**
 * The simulated infrastructure works for `seconds`, scaled by the speed (0: done on the next
 * step). The ready time is fixed at the first step and kept in the progress, so retries and
 * restarts keep it. Undefined once it is reached.
 */
export function stillWorking(seconds: number, ctx: StepContext, speed: number): StepOutcome<never> | undefined {
  const duration = seconds * 1000 * speed;
  const stored = ctx.progress.ready_at;
  const readyAt = typeof stored === 'number' ? stored : ctx.now + duration;
  return readyAt > ctx.now ? waitUntil(readyAt, { ...ctx.progress, ready_at: readyAt }) : undefined;
}
