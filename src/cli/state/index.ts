import type { AcaciaClient } from '../../client/index.js';
import type { StateFile } from '../../schemas/state-file.js';
import { applyPlan, graphInputsOf, secretsOf } from './apply.js';
import { hasChanges, planState, type Change, type Plan } from './plan.js';
import { readLiveState } from './read.js';

export { exportState, stateYaml } from './export.js';
export { readState, parseState, StateFileError } from './file.js';
export { readLiveState } from './read.js';
export { hasChanges, planState, type Plan };

/** The plan as printed with -o json: the changes (without the executor's details) and counts. */
export function planReport(plan: Plan, extra: Record<string, unknown> = {}) {
  return {
    changes: plan.changes.map(({ action, kind, name, detail }) => ({
      action,
      kind,
      name,
      ...(detail ? { detail } : {}),
    })),
    summary: plan.summary,
    no_changes: !hasChanges(plan),
    ...extra,
  };
}

/**
 * Makes the server match a checked state file: reads what it holds, plans, checks that every
 * secret the plan needs is in the environment (before changing anything), then applies the
 * plan unless `dryRun`. Answers the plan.
 */
export async function applyState(
  client: AcaciaClient,
  file: StateFile,
  opts: {
    source: string;
    prune?: boolean;
    dryRun?: boolean;
    /** Hears the plan before it is applied. */
    onPlan?: (plan: Plan) => void;
    progress?: (c: Change) => void;
  },
): Promise<Plan> {
  const live = await readLiveState(client);
  const plan = planState(file, live, { source: opts.source, prune: opts.prune === true });
  const inputs = { secrets: secretsOf(plan, opts.source), graphs: graphInputsOf(plan, opts.source) };
  opts.onPlan?.(plan);
  if (!opts.dryRun && hasChanges(plan)) await applyPlan(client, plan, live, inputs, opts.progress);
  return plan;
}
