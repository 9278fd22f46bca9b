import type { Insertable, Kysely } from 'kysely';
import { newId } from '../src/domain/ids.js';
import { nextOccurrence, type Repeat } from '../src/domain/schedule-rules.js';
import type { DB } from '../src/store/schema.js';
import { newWorkspace, workspaceColumns } from '../src/store/models/workspace.js';

/**
 * Seeds the scale benchmark's rows straight into the store: creating ten thousand
 * workspaces through the API would take most of an hour, and what is measured here is how
 * reads and the scheduler behave once the rows exist. The rows are what the API would have
 * written: per block, one organisation, 10 workgroups of 10 Active read-write workspaces,
 * each with its database, 10 schedules and 2 past runs per schedule.
 */
export const WORKSPACES_PER_BLOCK = 100;
export const SCHEDULES_PER_WORKSPACE = 10;
const WORKGROUPS_PER_BLOCK = 10;
const RUNS_PER_SCHEDULE = 2;
const CHUNK = 500;
const DAY = 86_400_000;
const HOUR = 3_600_000;

const repeatsCycle: Repeat[] = ['daily', 'weekly', 'weekdays'];
const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];
const actions = ['resize', 'pause', 'resume'] as const;

export interface SeedContext {
  db: Kysely<DB>;
  /** Organisation of block 0: the bootstrap organisation the API key belongs to. */
  firstOrgId: string;
  providerId: string;
  /** Real time at the start of the run; every seeded occurrence is at least 2 hours after it. */
  now: number;
}

/** What block 0 holds, for the measurements that need a known workspace. */
export interface SeededWorkspace {
  workgroupId: string;
  workspaceId: string;
  scheduleIds: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');
/** nextOccurrence is the costly part of seeding, and a few hundred timings repeat: computed once each. */
const occurrences = new Map<string, number>();

/** The next occurrence of a timing at least 2 hours away, so nothing seeded falls due while the bench runs. */
function timing(ctx: SeedContext, repeat: Repeat, timezone: string, firstHour: number, minute: number) {
  const repeat_on = repeat === 'weekly' ? 'Mon,Thu' : null;
  for (let k = 0; k < 24; k++) {
    const time = `${pad((firstHour + k) % 24)}:${pad(minute)}`;
    const key = `${ctx.now}|${repeat}|${timezone}|${time}`;
    let next = occurrences.get(key);
    if (next === undefined) {
      next = nextOccurrence({ repeat, time, timezone, days: repeat === 'weekly' ? [1, 4] : undefined }, ctx.now)!;
      occurrences.set(key, next);
    }
    if (next >= ctx.now + 2 * HOUR) return { repeat_on, time, next };
  }
  throw new Error('no occurrence found');
}

async function insertChunks<T extends keyof DB>(db: Kysely<DB>, table: T, rows: Insertable<DB[T]>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    // Kysely cannot relate a generic table name to its row type.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const chunk = rows.slice(i, i + CHUNK) as any;
    await db.insertInto(table).values(chunk).execute();
  }
}

type Rows = { [T in 'workgroups' | 'databases' | 'workspaces' | 'schedules' | 'schedule_runs']: Insertable<DB[T]>[] };

/** Seeds blocks [from, to), one transaction each; returns the workspaces of block 0 when it is among them. */
export async function seedBlocks(ctx: SeedContext, from: number, to: number): Promise<SeededWorkspace[]> {
  const seeded: SeededWorkspace[] = [];
  for (let b = from; b < to; b++) {
    const t = ctx.now - 30 * DAY + b;
    const orgId = b === 0 ? ctx.firstOrgId : newId();
    const rows: Rows = { workgroups: [], databases: [], workspaces: [], schedules: [], schedule_runs: [] };
    for (let g = 0; g < WORKGROUPS_PER_BLOCK; g++) {
      const wgId = newId();
      rows.workgroups.push({
        id: wgId,
        org_id: orgId,
        name: `wg-${g}`,
        name_key: `wg-${g}`,
        cloud_provider_id: ctx.providerId,
        platform: 'aws',
        region: 'us-east-1',
        enable_allow_list: 0,
        enable_application_log: 0,
        encryption_method: null,
        shared_storage: 0,
        creator: 'bench',
        created_at: t,
        updated_at: t,
        version_number: 1,
      });
      for (let k = 0; k < WORKSPACES_PER_BLOCK / WORKGROUPS_PER_BLOCK; k++) {
        const workspace = addWorkspace(ctx, rows, {
          orgId,
          wgId,
          w: g * (WORKSPACES_PER_BLOCK / WORKGROUPS_PER_BLOCK) + k,
          k,
          t,
        });
        if (b === 0) seeded.push(workspace);
      }
    }
    await ctx.db.transaction().execute(async (trx) => {
      if (b !== 0)
        await trx
          .insertInto('organisations')
          .values({ id: orgId, name: `bench-org-${b}`, name_key: `bench-org-${b}`, tier: 'enterprise', created_at: t })
          .execute();
      for (const table of ['workgroups', 'databases', 'workspaces', 'schedules', 'schedule_runs'] as const)
        await insertChunks(trx, table, rows[table]);
    });
  }
  return seeded;
}

/**
 * One Active read-write workspace (number `w` of its block, `k` of its workgroup), its database, schedules and runs.
 */
function addWorkspace(
  ctx: SeedContext,
  rows: Rows,
  at: { orgId: string; wgId: string; w: number; k: number; t: number },
): SeededWorkspace {
  const { orgId, wgId, w, k, t } = at;
  const wsId = newId();
  const dbId = newId();
  rows.databases.push({
    id: dbId,
    org_id: orgId,
    workgroup_id: wgId,
    name: `ws-${k}-db`,
    name_key: `ws-${k}-db`,
    tg_version: '4.2.1',
    rw_workspace_id: wsId,
    created_at: t,
    updated_at: t,
    version_number: 1,
  });
  rows.workspaces.push(
    workspaceColumns(
      newWorkspace(
        {
          id: wsId,
          org_id: orgId,
          workgroup_id: wgId,
          database_id: dbId,
          name: `ws-${k}`,
          size: 'TG-00',
          status: 'Active',
          condition_type: 'Normal',
          tg_version: '4.2.1',
          // Every fourth one auto-stops, so the reconciler has candidates to look through.
          auto_stop_minutes: w % 4 === 0 ? 600 : 0,
          last_activity_at: ctx.now,
          creator: 'bench',
        },
        t,
      ),
    ),
  );
  const scheduleIds: string[] = [];
  for (let j = 0; j < SCHEDULES_PER_WORKSPACE; j++) {
    const repeat = repeatsCycle[j % repeatsCycle.length]!;
    const timezone = zones[(w + j) % zones.length]!;
    const action = actions[(w + j) % actions.length]!;
    const tm = timing(ctx, repeat, timezone, (j * 2 + w) % 24, (w * 7 + j * 13) % 60);
    const id = newId();
    scheduleIds.push(id);
    rows.schedules.push({
      id,
      org_id: orgId,
      workspace_id: wsId,
      repeat,
      date: null,
      repeat_on: tm.repeat_on,
      time: tm.time,
      timezone,
      action,
      workspace_type_name: action === 'resize' ? 'TG-0' : null,
      next_run_at: tm.next,
      created_at: t,
      updated_at: t,
      version_number: 1,
    });
    for (let r = 1; r <= RUNS_PER_SCHEDULE; r++) {
      const occurrence = tm.next - r * 7 * DAY;
      rows.schedule_runs.push({
        id: newId(),
        schedule_id: id,
        occurrence_at: occurrence,
        fired_at: occurrence + 20 * 60_000,
        outcome: 'skipped',
        reason: 'missed by 20 minutes, more than the 15-minute grace period',
        operation_id: null,
      });
    }
  }
  return { workgroupId: wgId, workspaceId: wsId, scheduleIds };
}
