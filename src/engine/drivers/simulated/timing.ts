import type { AccountAction, BackupAction, WorkspaceAction } from '../../../domain/actions.js';
import { waitUntil, type StepContext, type StepOutcome } from '../driver.js';

/** Realistic durations in seconds at ACACIA_SIM_SPEED=1. */
export const simulatedSeconds: Record<WorkspaceAction | BackupAction | Exclude<AccountAction, 'validate'>, number> = {
  create: 90,
  provision: 120,
  pause: 20,
  resume: 30,
  recover: 30,
  resize: 60,
  ha: 45,
  upgrade: 90,
  refresh: 30,
  restore: 60,
  backup: 30,
  delete: 20,
};

/**
 * The simulated infrastructure works for the longest of the actions' durations, scaled by
 * the speed (0: done on the next step). The ready time is fixed at the first step and kept
 * in the progress, so retries and restarts keep it. Undefined once it is reached.
 */
export function stillWorking(
  actions: ReadonlyArray<keyof typeof simulatedSeconds>,
  ctx: StepContext,
  speed: number,
): StepOutcome<never> | undefined {
  const duration = Math.max(...actions.map((a) => simulatedSeconds[a] * 1000 * speed));
  const stored = ctx.progress.ready_at;
  const readyAt = typeof stored === 'number' ? stored : ctx.now + duration;
  return readyAt > ctx.now ? waitUntil(readyAt, { ...ctx.progress, ready_at: readyAt }) : undefined;
}
