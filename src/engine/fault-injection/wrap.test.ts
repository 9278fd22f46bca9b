import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultCatalog } from '../../domain/catalog.js';
import {
  done,
  waitUntil,
  type Drivers,
  type StepContext,
  type WorkspaceObserved,
  type WorkspaceSpec,
} from '../drivers/driver.js';
import { FaultInjection } from './index.js';

/** A driver that records what reached it: the wrapper's effects are what it does not see. */
function recordingDrivers() {
  const calls: Array<{ what: string; ctx: unknown }> = [];
  let next: 'done' | 'wait' = 'done';
  const drivers: Drivers = {
    name: 'recording',
    workspace: {
      async apply(actions, _spec, ctx) {
        calls.push({ what: actions.join('+'), ctx });
        return next === 'done' ? done<WorkspaceObserved>({ topologyBytes: 7 }) : waitUntil(ctx.now + 5, { own: 1 });
      },
      async observe(_spec, ctx) {
        calls.push({ what: 'observe', ctx });
        return { kind: 'running' };
      },
      async removeDatabase(_ref, ctx) {
        calls.push({ what: 'remove database', ctx });
        return done({});
      },
      async metrics(_spec, ctx) {
        calls.push({ what: 'metrics', ctx });
        return { cpuPercent: 0, memoryBytes: 0, diskBytes: 0, vertexCount: 0, edgeCount: 0, endpoints: [] };
      },
    },
    backup: {
      async backup(_spec, ctx) {
        calls.push({ what: 'backup', ctx });
        return done({ sizeBytes: 1 });
      },
      async remove(_ref, ctx) {
        calls.push({ what: 'remove', ctx });
        return done({});
      },
    },
    account: {
      async provision(_spec, ctx) {
        calls.push({ what: 'provision', ctx });
        return done({});
      },
      async upgrade(_spec, ctx) {
        calls.push({ what: 'upgrade', ctx });
        return done({});
      },
      async validate(_check, ctx) {
        calls.push({ what: 'validate', ctx });
        return { ok: true };
      },
    },
    close: async () => undefined,
  };
  return { drivers, calls, willWait: () => (next = 'wait') };
}

const spec = { workspaceId: 'w' } as WorkspaceSpec;
const ctx = (testEnv: string | undefined, progress: Record<string, unknown> = {}, now = 1000): StepContext => ({
  operationId: 'op',
  attempt: 1,
  now,
  progress,
  signal: new AbortController().signal,
  testEnv,
});

describe('fault injection around a driver', () => {
  const on = new FaultInjection(true, defaultCatalog);

  it('fails an action named by fail: before the driver sees it, and lets the others through', async () => {
    const { drivers, calls } = recordingDrivers();
    const wrapped = on.wrap(drivers);
    await assert.rejects(wrapped.workspace.apply(['resize', 'ha'], spec, ctx('fail:ha')), /simulated ha failure/);
    await assert.rejects(wrapped.backup.backup({} as never, ctx('fail:backup')), /simulated backup failure/);
    assert.equal(calls.length, 0);
    assert.equal((await wrapped.workspace.apply(['pause'], spec, ctx('fail:ha'))).kind, 'done');
    assert.deepEqual(
      calls.map((c) => c.what),
      ['pause'],
    );
  });

  it('holds a step for slow:, then hands the driver its own progress without the directives', async () => {
    const { drivers, calls, willWait } = recordingDrivers();
    const wrapped = on.wrap(drivers);
    const held = await wrapped.workspace.apply(['resize'], spec, ctx('slow:resize=60s'));
    assert.deepEqual(held, { kind: 'wait', until: 61_000, progress: { injected_delay_until: 61_000 } });
    assert.equal(calls.length, 0, 'the driver is not called while the step is held');

    willWait();
    const later = ctx('slow:resize=60s', held.kind === 'wait' ? held.progress : {}, 61_000);
    const driverWaits = await wrapped.workspace.apply(['resize'], spec, later);
    assert.deepEqual(calls[0]!.ctx, { operationId: 'op', attempt: 1, now: 61_000, progress: {}, signal: later.signal });
    assert.deepEqual(
      driverWaits,
      { kind: 'wait', until: 61_005, progress: { own: 1, injected_delay_until: 61_000 } },
      "the driver's own progress is kept, and so is the delay already served",
    );
  });

  it('reports topology= as the size of a created graph, and fail:observe as a lost runtime', async () => {
    const { drivers } = recordingDrivers();
    const wrapped = on.wrap(drivers);
    const created = await wrapped.workspace.apply(['create'], spec, ctx('topology=2KiB'));
    assert.deepEqual(created, { kind: 'done', observed: { topologyBytes: 2048 } });
    const resumed = await wrapped.workspace.apply(['resume'], spec, ctx('topology=2KiB'));
    assert.deepEqual(resumed, { kind: 'done', observed: { topologyBytes: 7 } }, 'only a create takes it');
    const seen = await wrapped.workspace.observe(spec, {
      now: 0,
      signal: new AbortController().signal,
      testEnv: 'fail:observe',
    });
    assert.equal(seen.kind, 'lost');
  });

  it('refuses a role for fail:validate without asking the driver', async () => {
    const { drivers, calls } = recordingDrivers();
    const answer = await on.wrap(drivers).account.validate(
      { platform: 'aws', region: 'us-east-1', roleArn: 'arn:aws:iam::123456789012:role/x' },
      {
        testEnv: 'fail:validate',
      },
    );
    assert.deepEqual(answer, { ok: false, reason: 'role x cannot be assumed (x_test_env fail:validate)' });
    assert.deepEqual(calls, []);
  });

  it('off, leaves the drivers as they are and refuses every directive', async () => {
    const off = new FaultInjection(false, defaultCatalog);
    const { drivers, calls } = recordingDrivers();
    assert.equal(off.wrap(drivers), drivers);
    assert.match(off.problems('fail:create', 'workspace')[0]!, /ACACIA_FAULT_INJECTION=on/);
    assert.equal((await off.wrap(drivers).workspace.apply(['create'], spec, ctx('fail:create'))).kind, 'done');
    assert.equal(calls.length, 1);
  });

  it('checks directives per resource: actions, forms and bounds', () => {
    assert.deepEqual(on.problems('fail:observe, slow:recover=1h, topology=1GiB', 'workspace'), []);
    assert.match(on.problems('fail:crate', 'workspace')[0]!, /unknown directives: fail:crate; .*create/);
    assert.match(on.problems('topology=1GiB', 'cloud_provider')[0]!, /unknown directives: topology=1GiB/);
    assert.match(on.problems('fail:create', 'cloud_provider')[0]!, /action of provision, upgrade, validate$/);
    assert.match(on.problems('slow:create=25h', 'workspace')[0]!, /out of bounds: slow:create=25h/);
    assert.match(on.problems('topology=4097GiB', 'workspace')[0]!, /at most 4398046511104 bytes/);
  });
});
