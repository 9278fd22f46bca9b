import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { resultOf, type AcaciaClient, type WorkspaceRecord } from '../src/client/index.js';
import { defaultCatalog } from '../src/domain/catalog.js';
import { GRACE_MS } from '../src/domain/schedule-firing.js';
import { openStore, type Store } from '../src/store/store.js';
import { assertOk } from './helpers/assert.js';
import { Actor } from './helpers/load-actor.js';
import { Load } from './helpers/load.js';
import { Cluster } from './helpers/load-cluster.js';
import { SeededRandom } from './helpers/seeded-random.js';
import { freshStore, newKeyText, publicProvider, storeName } from './helpers/server.js';

// Several processes share one PostgreSQL (DESIGN §10); SQLite's scale is one process, which
// is killed and started again on the same file.
const PROCESSES = storeName === 'postgres' ? 3 : 1;
const ACTORS = 6;
const STEPS = 50;
/** The kill comes when this many steps of the load are done. */
const KILL_AFTER = Math.floor(ACTORS * STEPS * 0.4);
/** Just before the first scheduled occurrences (08:00–08:23 UTC daily), so some fire during the load. */
const START = '2058-01-07T07:55:00Z';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const statusOf = { active: 'Active', stopped: 'Stopped', failed: 'Failed' } as const;
const stable = ['Active', 'Stopped', 'Idle', 'Failed'];

describe(`load and kill (${storeName})`, () => {
  it(
    `${PROCESSES} process(es) under a mixed load, one killed mid-run: every ` +
      `acknowledged write stays, every operation completes, no occurrence fires twice`,
    { timeout: 120_000 },
    async (t) => {
      const store = await freshStore();
      const key = newKeyText();
      // Quotas far above the load, so it is refused only by states and races, never by a tier.
      const configPath = path.join(store.dataDir, 'load-config.json');
      const enterprise = {
        ...defaultCatalog.tiers.enterprise,
        rw_workspaces: 1000,
        ro_workspaces: 1000,
        memory_gb: 1_000_000,
      };
      writeFileSync(configPath, JSON.stringify({ tiers: { ...defaultCatalog.tiers, enterprise } }));
      // Realistic simulated durations: operations stay in flight across clock moves and the kill.
      const cluster = new Cluster(store, key, { ACACIA_SIM_SPEED: '1', ACACIA_CONFIG: configPath });
      let reader: Store | undefined;
      const started = Date.now();
      try {
        for (let i = 0; i < PROCESSES; i++) await cluster.start();
        const first = cluster.members[0]!.client;
        assertOk(await first.moveClock({ now: START, skip_due: true }));
        reader = await openStore({ dataDir: store.dataDir, databaseUrl: store.databaseUrl });
        const db = reader.db;

        const seed = randomInt(2 ** 31);
        t.diagnostic(`seed ${seed}`);
        const load = new Load(cluster, new SeededRandom(seed), await publicProvider(first));
        const actors = Array.from({ length: ACTORS }, (_, i) => new Actor(i + 1, load));
        let reachKill!: () => void;
        const killPoint = new Promise<void>((r) => (reachKill = r));
        const killer = killPoint.then(async () => {
          const victim = cluster.members.at(-1)!;
          // Moving the clock on the victim makes it claim the operations that fall due.
          const stranded = await cluster.killHoldingLease(
            victim,
            db,
            () => victim.client.moveClock({ advance_seconds: 45 }),
            30_000,
          );
          if (PROCESSES === 1) await cluster.start();
          return stranded;
        });
        const onStep = () => {
          if (++load.stepsDone === KILL_AFTER) reachKill();
        };
        await Promise.all(actors.map((a) => a.run(STEPS, onStep)));
        const stranded = await killer;
        const loadDone = Date.now();

        // Three days on, in 8-hour moves made by every live process at once, racing for each
        // occurrence: past every simulated duration, retry and the dead process's leases.
        // It ends at noon UTC, hours after the day's last occurrence, so everything has finished.
        const c = cluster.alive[0]!.client;
        const base = Date.parse(assertOk(await c.moveClock({ advance_seconds: 0 })).now);
        const finalNow = Math.floor(base / DAY) * DAY + 3 * DAY + 12 * HOUR;
        const targets = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => base + k * 8 * HOUR).filter((at) => at < finalNow);
        for (const at of [...targets, finalNow]) {
          const now = new Date(at).toISOString();
          for (const res of await Promise.all(cluster.alive.map((m) => m.client.moveClock({ now })))) assertOk(res);
        }
        t.diagnostic(
          `${load.counts.requests} requests (${load.counts.acked} acknowledged, ` +
            `${load.counts.refused} refused, ${load.counts.lost} lost) ` +
            `over ${PROCESSES} process(es) in ${loadDone - started} ms; ` +
            `the kill stranded ${stranded.length} leased operation(s); ` +
            `unacknowledged creates ${JSON.stringify(load.unackedCreates)}; settled in ${Date.now() - loadDone} ms`,
        );

        for (const [reason, n] of [...load.refusals].sort((a, b) => b[1] - a[1]))
          t.diagnostic(`refused ${n}× ${reason}`);
        assert.deepEqual(
          load.problems,
          [],
          'the load saw no errors beyond the killed process and read every acknowledged write back',
        );
        assert.ok(stranded.length > 0, 'the kill stranded at least one leased operation');
        await checkOperations(db, actors, stranded);
        await checkResources(c, actors, load);
        await checkSchedules(c, db, load, finalNow);
      } finally {
        await cluster.stop();
        await reader?.close();
        await store.dispose();
      }
    },
  );
});

/** Every operation finished; only the resizes injected to fail failed; one create per workspace. */
async function checkOperations(db: Store['db'], actors: Actor[], stranded: string[]): Promise<void> {
  const ops = await db.selectFrom('operations').select(['id', 'kind', 'state', 'resource_id', 'error']).execute();
  const unfinished = ops.filter((o) => o.state !== 'succeeded' && o.state !== 'failed');
  assert.deepEqual(unfinished, [], 'every operation completes, including those the killed process held');
  for (const id of stranded)
    assert.ok(
      ops.some((o) => o.id === id && (o.state === 'succeeded' || o.state === 'failed')),
      `stranded operation ${id} was taken over and finished`,
    );
  const workspaces = actors.flatMap((a) => a.workspaces);
  const failResize = new Set(workspaces.filter((w) => w.failResize).map((w) => w.id));
  for (const op of ops.filter((o) => o.state === 'failed')) {
    assert.ok(
      op.kind === 'workspace.update' && failResize.has(op.resource_id),
      `only injected failures fail: ${JSON.stringify(op)}`,
    );
  }
  for (const ws of workspaces) {
    const creates = ops.filter((o) => o.resource_id === ws.id && o.kind === 'workspace.create');
    assert.equal(creates.length, 1, `workspace ${ws.id} was created by one operation`);
  }
}

/** Every acknowledged create is there with its acknowledged fields unless an acknowledged delete removed it. */
async function checkResources(c: AcaciaClient, actors: Actor[], load: Load): Promise<void> {
  const workgroups = resultOf(await c.workgroups.list({ limit: 1000 }));
  const models = actors.flatMap((a) => a.workgroups);
  for (const wg of models) {
    const found = workgroups.find((w) => w.workgroup_id === wg.id);
    if (wg.deleted === 'yes') assert.equal(found, undefined, `deleted workgroup ${wg.id} is gone`);
    if (wg.deleted === 'no') assert.ok(found, `acknowledged workgroup ${wg.id} is present`);
    if (found && wg.name !== undefined)
      assert.equal(found.name, wg.name, `workgroup ${wg.id} keeps its acknowledged name`);
  }
  const extraWorkgroups = workgroups.filter((w) => !models.some((m) => m.id === w.workgroup_id));
  assert.ok(
    extraWorkgroups.length <= load.unackedCreates.workgroups,
    `${extraWorkgroups.length} workgroups nobody acknowledged`,
  );

  const all: WorkspaceRecord[] = [];
  const entries = new Map<string, string[]>();
  for (const wg of workgroups) {
    all.push(...resultOf(await c.workspaces.list(wg.workgroup_id)));
    const listed = resultOf(await c.allowList.list(wg.workgroup_id));
    entries.set(
      wg.workgroup_id,
      listed.map((e) => e.id),
    );
    for (const e of actors.flatMap((a) => a.entries).filter((x) => x.wg === wg.workgroup_id)) {
      const found = listed.find((x) => x.id === e.id);
      if (e.deleted === 'yes') assert.equal(found, undefined, `deleted entry ${e.id} is gone`);
      if (e.deleted === 'no')
        assert.ok(
          found?.cidr === e.cidr && (e.note === undefined || found.note === e.note),
          `entry ${e.id} reads ${JSON.stringify(found)}`,
        );
    }
  }
  const entryModels = actors.flatMap((a) => a.entries);
  const extraEntries = [...entries.values()].flat().filter((id) => !entryModels.some((e) => e.id === id));
  assert.ok(
    extraEntries.length <= load.unackedCreates.entries,
    `${extraEntries.length} allow-list entries nobody acknowledged`,
  );

  const wsModels = actors.flatMap((a) => a.workspaces);
  for (const r of all) assert.ok(stable.includes(r.status!), `workspace ${r.workspace_id} is ${r.status}, not stable`);
  for (const ws of wsModels) {
    const found = all.find((r) => r.workspace_id === ws.id);
    if (ws.deleted === 'yes') assert.equal(found, undefined, `deleted workspace ${ws.id} is gone`);
    if (ws.deleted === 'no') assert.ok(found, `acknowledged workspace ${ws.id} is present`);
    if (!found) continue;
    assert.deepEqual(
      [found.workgroup_id, found.is_rw, found.database_id],
      [ws.wg, ws.isRw, ws.dbId],
      `workspace ${ws.id} keeps where it was created`,
    );
    if (ws.name !== undefined) assert.equal(found.name, ws.name, `workspace ${ws.id} keeps its acknowledged name`);
    if (ws.size !== undefined)
      assert.equal(found.workspace_type?.typeName, ws.size, `workspace ${ws.id} keeps its acknowledged size`);
    if (!ws.scheduled && ws.state !== undefined)
      assert.equal(found.status, statusOf[ws.state], `workspace ${ws.id} ends as its acknowledged requests lead`);
  }
  const extraWorkspaces = all.filter((r) => !wsModels.some((m) => m.id === r.workspace_id));
  assert.ok(
    extraWorkspaces.length <= load.unackedCreates.workspaces,
    `${extraWorkspaces.length} workspaces nobody acknowledged`,
  );
}

/**
 * Every acknowledged schedule is there and ran each daily occurrence exactly once, on time;
 * every started run has its own operation and every scheduled operation has its run.
 */
async function checkSchedules(c: AcaciaClient, db: Store['db'], load: Load, finalNow: number): Promise<void> {
  assert.ok(load.schedules.length > 0, 'the load created schedules');
  const runs = await db.selectFrom('schedule_runs').selectAll().execute();
  const ops = (await db.selectFrom('operations').select(['id', 'params']).execute()).map((o) => ({
    id: o.id,
    scheduleId: JSON.parse(o.params).schedule_id as string | undefined,
  }));
  for (const s of load.schedules) {
    const record = resultOf(await c.schedules.get(s.wg, s.ws, s.id));
    assert.deepEqual(
      [record.action, record.time, record.timezone, record.repeat],
      [s.action, s.time, s.timezone, 'daily'],
    );
    const expected: number[] = [];
    for (let at = s.firstRun; at <= finalNow; at += DAY) expected.push(at);
    const mine = runs
      .filter((r) => r.schedule_id === s.id)
      .sort((a, b) => Number(a.occurrence_at) - Number(b.occurrence_at));
    assert.deepEqual(
      mine.map((r) => Number(r.occurrence_at)),
      expected,
      `schedule ${s.id} ran each occurrence once`,
    );
    // Skipped only for the workspace's state (already paused, say), never for lateness or a race.
    for (const r of mine)
      assert.ok(
        Number(r.fired_at) - Number(r.occurrence_at) <= GRACE_MS && !/missed|another request/.test(r.reason ?? ''),
        `run on time: ${JSON.stringify(r)}`,
      );
  }
  const scheduleIds = new Set([
    ...runs.map((r) => r.schedule_id),
    ...ops.flatMap((o) => (o.scheduleId ? [o.scheduleId] : [])),
  ]);
  for (const id of scheduleIds) {
    const started = runs
      .filter((r) => r.schedule_id === id && r.outcome === 'started')
      .map((r) => r.operation_id)
      .sort();
    const fired = ops
      .filter((o) => o.scheduleId === id)
      .map((o) => o.id)
      .sort();
    assert.deepEqual(fired, started, `schedule ${id}: one operation per started run, none without`);
  }
  assert.ok(
    runs.some((r) => r.outcome === 'started'),
    'schedules started operations',
  );
}
