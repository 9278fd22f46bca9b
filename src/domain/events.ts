import type { DatabaseRecord, WorkspaceRecord } from '../schemas/workspace.js';
import type { OperationRecord } from '../schemas/operation.js';
import type { AddonRequestRecord } from '../schemas/addon.js';
import type { EventWriter, Executor, NotedChange, Tx } from '../store/store.js';
import { insertEvents, type EventRow, type NewEvent } from '../store/repositories/events.js';
import { findBackupById } from '../store/repositories/backups.js';
import { findDatabaseById } from '../store/repositories/databases.js';
import { findOperationById } from '../store/repositories/operations.js';
import { findOrganisationById } from '../store/repositories/organisations.js';
import { findScheduleById, lastRuns } from '../store/repositories/schedules.js';
import { findWorkgroupById } from '../store/repositories/workgroups.js';
import { findWorkspaceById } from '../store/repositories/workspaces.js';
import type { EventRecord, EventResourceKind, EventType } from '../schemas/event.js';
import type { Clock } from './clock.js';
import { addonRequestOf } from './addon-requests.js';
import { backupRecord } from './backups.js';
import { operationRecord } from './operations.js';
import {
  databaseOwnRecord,
  loadViewById,
  loadWorkspaceView,
  workgroupOwnRecord,
  workspaceRecord,
  type RecordContext,
} from './records.js';
import { scheduleRecord } from './schedules.js';
import { iso } from './time.js';

/** Changes of one resource in one transaction that become a single event (its state after them all). */
const coalescing = new Set(['created', 'updated', 'status_changed', 'deleted']);
/**
 * Which of two coalescing changes names the event: a deletion says most, then a creation, then
 * a status change, then an update.
 */
const weight: Record<string, number> = { updated: 0, status_changed: 1, created: 2, deleted: 3 };

type DatabaseOwnRecord = Omit<DatabaseRecord, 'workspaces'>;

/** Where an event belongs, and what it carries. */
interface Resolved {
  orgId: string;
  workgroupId: string | null;
  workspaceId: string | null;
  data: unknown;
}

/**
 * Turns the changes a transaction noted into event rows, in that transaction, with the
 * records as the API renders them (the same builders as the responses; none holds a secret).
 * Records are read at the end of the transaction: the event carries the state it commits.
 * A workgroup's or a database's event carries its own record without the records the API
 * embeds in it (databases, workspaces): those have events of their own, and every change of
 * a workgroup would otherwise repeat all of its workspaces, twice. Every part of what an
 * event carries is thus bounded by a limit (docs/events.md).
 */
export function eventWriter(clock: Clock, ctx: RecordContext): EventWriter {
  return async (tx, changes) => {
    const now = clock.now();
    const rows: NewEvent[] = [];
    for (const change of merge(changes)) {
      const resolved = await eventSources[change.kind](change, { tx, ctx });
      if (!resolved) continue;
      rows.push({
        org_id: resolved.orgId,
        resource_kind: change.kind,
        resource_id: change.id,
        workgroup_id: resolved.workgroupId,
        workspace_id: resolved.workspaceId,
        type: `${change.kind}.${change.change}`,
        time: now,
        data: JSON.stringify(resolved.data ?? null),
      });
    }
    await insertEvents(tx.db, rows);
    return rows.length;
  };
}

/** One change per resource for created/updated/status_changed/deleted, in order of first mention. */
function merge(changes: readonly NotedChange[]): NotedChange[] {
  const out: NotedChange[] = [];
  const index = new Map<string, number>();
  for (const change of changes) {
    if (!coalescing.has(change.change)) {
      out.push(change);
      continue;
    }
    const key = `${change.kind}:${change.id}`;
    const at = index.get(key);
    if (at === undefined) {
      index.set(key, out.length);
      out.push(change);
    } else if (weight[change.change]! >= weight[out[at]!.change]!) {
      out[at] = { ...out[at]!, ...definedOf(change), change: change.change };
    }
  }
  return out;
}

function definedOf(change: NotedChange): Partial<NotedChange> {
  return Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
}

/** The organisation as records name it. */
async function orgOf(db: Executor, orgId: string): Promise<{ orgId: string; orgName: string }> {
  return { orgId, orgName: (await findOrganisationById(db, orgId))?.name ?? '' };
}

/** What a source is given: the unit of work whose change it resolves, and how records are rendered. */
interface SourceContext {
  tx: Tx;
  ctx: RecordContext;
}

/**
 * Where the events of one resource kind come from: the organisation, place and record of a
 * change of that kind; undefined when there is nothing to tell.
 */
type EventSource = (c: NotedChange, at: SourceContext) => Promise<Resolved | undefined>;

/** A change of a resource that is gone: its place as noted, and the data it left. */
function gone(c: NotedChange, data: unknown): Resolved | undefined {
  return c.orgId === undefined
    ? undefined
    : { orgId: c.orgId, workgroupId: c.workgroupId ?? null, workspaceId: c.workspaceId ?? null, data: c.data ?? data };
}

/**
 * The event source of every resource kind that has events. Typed by the kinds of the event
 * schema, so a kind added there does not compile until its source is here.
 */
const eventSources: { [K in EventResourceKind]: EventSource } = {
  // Billing's changes of standing carry what they say (src/store/repositories/billing.ts).
  organisation: async (c) => gone(c, { org_id: c.id }),
  addon_request: async (c, { tx }) => {
    const record =
      (tx.offeredRecord(c.kind, c.id) as AddonRequestRecord | undefined) ?? (await addonRequestOf(tx.db, c.id));
    if (!record) return undefined;
    // The stream is open to every role; the message is for the admins, who read it with the request.
    const { message: _message, ...told } = record;
    return { orgId: record.org_id, workgroupId: null, workspaceId: null, data: told };
  },
  allow_list_entry: async (c, { tx }) => {
    // The domain offers the entry's record with every change; a deletion carries its id.
    const offered = c.change === 'deleted' ? undefined : tx.offeredRecord(c.kind, c.id);
    if (c.orgId === undefined) return undefined;
    return { orgId: c.orgId, workgroupId: c.workgroupId ?? null, workspaceId: null, data: offered ?? { id: c.id } };
  },
  workspace: async (c, { tx, ctx }) => {
    if (c.change === 'deleted') return gone(c, { workspace_id: c.id });
    const offered = tx.offeredRecord('workspace', c.id) as WorkspaceRecord | undefined;
    if (offered)
      return {
        orgId: offered.org_id,
        workgroupId: offered.workgroup_id,
        workspaceId: offered.workspace_id,
        data: offered,
      };
    const db = tx.db;
    const ws = await findWorkspaceById(db, c.id);
    if (!ws) return undefined;
    const loaded = await loadWorkspaceView(db, await orgOf(db, ws.org_id), ws.workgroup_id, ws.id);
    if (!loaded?.ws) return undefined;
    return {
      orgId: ws.org_id,
      workgroupId: ws.workgroup_id,
      workspaceId: ws.id,
      data: workspaceRecord(loaded.ws, loaded.view, ctx),
    };
  },
  workgroup: async (c, { tx }) => {
    if (c.change === 'deleted') return gone(c, { workgroup_id: c.id });
    const db = tx.db;
    const wg = await findWorkgroupById(db, c.id);
    const view = wg && (await loadViewById(db, await orgOf(db, wg.org_id), wg.id));
    if (!wg || !view) return undefined;
    return { orgId: wg.org_id, workgroupId: wg.id, workspaceId: null, data: workgroupOwnRecord(view) };
  },
  database: async (c, { tx }) => {
    if (c.change === 'deleted') return gone(c, { database_id: c.id });
    const offered = tx.offeredRecord('database', c.id) as DatabaseOwnRecord | undefined;
    if (offered) return { orgId: offered.org_id, workgroupId: offered.workgroup_id, workspaceId: null, data: offered };
    const db = tx.db;
    const database = await findDatabaseById(db, c.id);
    const view = database && (await loadViewById(db, await orgOf(db, database.org_id), database.workgroup_id));
    if (!database || !view) return undefined;
    return {
      orgId: database.org_id,
      workgroupId: database.workgroup_id,
      workspaceId: null,
      data: databaseOwnRecord(database, view),
    };
  },
  backup: async (c, { tx }) => {
    if (c.change === 'deleted') return withWorkgroup(tx, gone(c, { backup_id: c.id }));
    const backup = await findBackupById(tx.db, c.id);
    if (!backup) return undefined;
    return withWorkgroup(tx, {
      orgId: backup.org_id,
      workgroupId: null,
      workspaceId: backup.workspace_id,
      data: backupRecord(backup),
    });
  },
  schedule: async (c, { tx }) => {
    const schedule = await findScheduleById(tx.db, c.id);
    if (c.change === 'deleted' || !schedule) return withWorkgroup(tx, gone(c, { id: c.id }));
    const last = (await lastRuns(tx.db, [schedule.id])).get(schedule.id);
    return withWorkgroup(tx, {
      orgId: schedule.org_id,
      workgroupId: null,
      workspaceId: schedule.workspace_id,
      data: c.data ? { ...scheduleRecord(schedule, last), run: c.data } : scheduleRecord(schedule, last),
    });
  },
  operation: async (c, { tx }) => {
    // Offered where it is started, whose change names its organisation.
    const offered = tx.offeredRecord('operation', c.id) as OperationRecord | undefined;
    if (offered && c.orgId !== undefined) {
      const place = await placeOfOperation(tx, offered.resource_type, offered.resource_id);
      return { orgId: c.orgId, ...place, data: offered };
    }
    const op = await findOperationById(tx.db, c.id);
    if (!op) return undefined;
    const place = await placeOfOperation(tx, op.resource_type, op.resource_id);
    return { orgId: op.org_id, ...place, data: operationRecord(op) };
  },
};

/** Fills the workgroup of a change known by its workspace. */
async function withWorkgroup(tx: Tx, r: Resolved | undefined): Promise<Resolved | undefined> {
  if (!r || r.workgroupId || !r.workspaceId) return r;
  return { ...r, workgroupId: await workgroupOfWorkspace(tx, r.workspaceId) };
}

/** The workgroup of a workspace, from its record if this unit offered one; null once it is gone. */
async function workgroupOfWorkspace(tx: Tx, workspaceId: string): Promise<string | null> {
  const offered = tx.offeredRecord('workspace', workspaceId) as WorkspaceRecord | undefined;
  return offered?.workgroup_id ?? (await findWorkspaceById(tx.db, workspaceId))?.workgroup_id ?? null;
}

async function placeOfOperation(
  tx: Tx,
  resourceType: string,
  resourceId: string,
): Promise<{ workgroupId: string | null; workspaceId: string | null }> {
  let workspaceId: string | null = null;
  if (resourceType === 'workspace') workspaceId = resourceId;
  if (resourceType === 'backup') workspaceId = (await findBackupById(tx.db, resourceId))?.workspace_id ?? null;
  return { workgroupId: workspaceId ? await workgroupOfWorkspace(tx, workspaceId) : null, workspaceId };
}

/** An event row as the API shows it. */
export function eventRecord(row: EventRow): EventRecord {
  return {
    event_id: Number(row.id),
    type: row.type as EventType,
    resource_kind: row.resource_kind as EventResourceKind,
    resource_id: row.resource_id,
    ...(row.workgroup_id ? { workgroup_id: row.workgroup_id } : {}),
    ...(row.workspace_id ? { workspace_id: row.workspace_id } : {}),
    org_id: row.org_id,
    time: iso(Number(row.time)),
    data: JSON.parse(row.data) as unknown,
  };
}
