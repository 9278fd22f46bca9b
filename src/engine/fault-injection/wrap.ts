import type { Action } from '../../domain/actions.js';
import { roleName } from '../../domain/cloud-provider-rules.js';
import {
  waitUntil,
  type AccountDriver,
  type BackupDriver,
  type Drivers,
  type StepContext,
  type StepOutcome,
  type WorkspaceDriver,
} from '../drivers/driver.js';
import { parseDirectives, type DirectiveLimits, type Directives } from './directives.js';

/** Where a step's injected delay is kept in the operation's progress, beside the driver's own. */
const DELAY_KEY = 'injected_delay_until';

/**
 * One step of the wrapped driver with the directives applied: `fail:` throws (a transient
 * failure, so the engine retries it and fails the operation after its last attempt),
 * `slow:` holds the step before the driver sees it. The driver gets the context without
 * `testEnv` and without the wrapper's progress.
 */
async function step<O>(
  actions: readonly Action[],
  ctx: StepContext,
  directives: Directives,
  run: (ctx: StepContext) => Promise<StepOutcome<O>>,
): Promise<StepOutcome<O>> {
  const failing = actions.find((a) => directives.fail.has(a));
  if (failing) throw new Error(`simulated ${failing} failure (x_test_env)`);
  const { testEnv: _, progress, ...rest } = ctx;
  const { [DELAY_KEY]: stored, ...own } = progress;
  const delay = Math.max(0, ...actions.map((a) => directives.slow.get(a) ?? 0));
  // Fixed at the first step, so retries and later steps keep it.
  const until = typeof stored === 'number' ? stored : delay > 0 ? ctx.now + delay : undefined;
  if (until !== undefined && until > ctx.now) return waitUntil(until, { ...progress, [DELAY_KEY]: until });
  const outcome = await run({ ...rest, progress: own });
  if (outcome.kind === 'wait' && until !== undefined)
    return { ...outcome, progress: { ...outcome.progress, [DELAY_KEY]: until } };
  return outcome;
}

function workspaceDriver(inner: WorkspaceDriver, limits: DirectiveLimits): WorkspaceDriver {
  return {
    async apply(actions, spec, ctx) {
      const directives = parseDirectives(ctx.testEnv, limits);
      const outcome = await step(actions, ctx, directives, (c) => inner.apply(actions, spec, c));
      // topology= stands in for data the workspace was created with.
      if (outcome.kind === 'done' && actions.includes('create') && directives.topologyBytes !== undefined)
        return { ...outcome, observed: { ...outcome.observed, topologyBytes: directives.topologyBytes } };
      return outcome;
    },
    async observe(spec, ctx) {
      const { testEnv, ...rest } = ctx;
      if (parseDirectives(testEnv, limits).fail.has('observe'))
        return { kind: 'lost', reason: 'simulated loss of the workspace runtime (x_test_env fail:observe)' };
      return inner.observe(spec, rest);
    },
    removeDatabase: (ref, { testEnv: _, ...ctx }) => inner.removeDatabase(ref, ctx),
    metrics: (spec, ctx) => inner.metrics(spec, ctx),
  };
}

function backupDriver(inner: BackupDriver, limits: DirectiveLimits): BackupDriver {
  return {
    backup: (spec, ctx) => step(['backup'], ctx, parseDirectives(ctx.testEnv, limits), (c) => inner.backup(spec, c)),
    remove: (ref, { testEnv: _, ...ctx }) => inner.remove(ref, ctx),
  };
}

function accountDriver(inner: AccountDriver, limits: DirectiveLimits): AccountDriver {
  return {
    provision: (spec, ctx) =>
      step(['provision'], ctx, parseDirectives(ctx.testEnv, limits), (c) => inner.provision(spec, c)),
    upgrade: (spec, ctx) => step(['upgrade'], ctx, parseDirectives(ctx.testEnv, limits), (c) => inner.upgrade(spec, c)),
    async validate(check, { testEnv, ...ctx }) {
      if (parseDirectives(testEnv, limits).fail.has('validate'))
        return { ok: false, reason: `role ${roleName(check.roleArn)} cannot be assumed (x_test_env fail:validate)` };
      return inner.validate(check, ctx);
    },
  };
}

/** The drivers with `x_test_env` fault injection applied in front of each step. */
export function withFaultInjection(drivers: Drivers, limits: DirectiveLimits): Drivers {
  return {
    name: drivers.name,
    workspace: workspaceDriver(drivers.workspace, limits),
    backup: backupDriver(drivers.backup, limits),
    account: accountDriver(drivers.account, limits),
    close: () => drivers.close(),
    ...(drivers.quiesce ? { quiesce: drivers.quiesce.bind(drivers) } : {}),
  };
}
