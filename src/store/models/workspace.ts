import type { WorkspaceRecord } from '../../schemas/workspace.js';
import { nameKey } from '../name-key.js';
import {
  bigint,
  derived,
  flag,
  integer,
  json,
  metadata,
  model,
  NOW,
  nullable,
  shown as shownAs,
  spec,
  status,
  text,
  type ColumnsOf,
  type GivenOf,
  type RowOf,
  type ShownHow,
  type AskedOf,
  type TargetsOf,
} from '../model.js';

/** An add-on as a workspace keeps it (`addons`, JSON). */
export interface StoredAddon {
  addons_id: string;
  enable: boolean;
  enable_configuration?: unknown;
}

/** How the workspace record shows a field: under an API name the record has. */
const shown = <N extends keyof WorkspaceRecord, const H extends ShownHow = object>(name: N, how?: H) =>
  shownAs(name, how);

/**
 * The workspace row, a field a line: see src/store/model.ts for what each part means and
 * docs/architecture.md for how to add a field. Fields the record shows as they are name
 * their API field (`shown`); the record computes the rest (src/domain/records.ts).
 */
const fields = {
  id: metadata(text(36), { shown: shown('workspace_id') }),
  org_id: metadata(text(36), { shown: shown('org_id') }),
  workgroup_id: metadata(text(36), { shown: shown('workgroup_id') }),
  database_id: metadata(text(36), { shown: shown('database_id') }),
  name: metadata(text(64), { shown: shown('name') }),
  // Text on PostgreSQL: a 64-character name can lower-case to 128 characters (migration 0011).
  name_key: derived(text(), 'name', nameKey),
  is_rw: spec(flag(), { default: true, shown: shown('is_rw') }),
  /** What the workspace runs at: written from the driver's report once a change is done. */
  size: status(text(32)),
  enable_ha: status(flag(), { default: false, shown: shown('enable_ha') }),
  status: status(text(16), { shown: shown('status') }),
  /** The operation under way (`Normal`: none). */
  condition_type: status(text(16), { shown: shown('condition_type') }),
  err_message: status(nullable(text()), { shown: shown('err_message', { whenSet: true }) }),
  /** The operation a Failed workspace's resume runs again. */
  failed_operation_id: status(nullable(text(36))),
  tg_version: status(text(32), { shown: shown('tg_version') }),
  /**
   * An upgrade waiting for its maintenance window. No target: an operation that runs
   * meanwhile keeps the version that runs.
   */
  desired_tg_version: spec(nullable(text(32)), { shown: shown('desired_tg_version', { whenSet: true }) }),
  update_strategy: spec(text(32), { default: 'maintenance_window', shown: shown('update_strategy') }),
  auto_upgrade_state: spec(text(16), { default: 'enabled', shown: shown('auto_upgrade_state') }),
  /** When the waiting upgrade is due, from the window (null: none waits). */
  maintenance_due_at: status(nullable(bigint()), {
    shown: shown('upgrade_window_start', { whenSet: true, time: true }),
  }),
  last_maintenance: status(nullable(bigint()), { shown: shown('last_maintenance', { whenSet: true, time: true }) }),
  auto_stop_minutes: spec(integer(), { default: 0, shown: shown('auto_stop_minutes') }),
  enable_auto_start: spec(flag(), { default: false, shown: shown('enable_auto_start') }),
  mw_day_of_week: spec(integer(), { default: 0, shown: shown('maintenance_window_day_of_week') }),
  mw_hour_of_day: spec(integer(), { default: 2, shown: shown('maintenance_window_hour_of_day') }),
  mw_interval_weeks: spec(integer(), { default: 1, shown: shown('maintenance_window_interval_weeks') }),
  mw_time_zone: spec(text(64), { default: 'UTC', shown: shown('maintenance_window_time_zone') }),
  addons: spec(json<StoredAddon[]>(), { default: [] as StoredAddon[] }),
  agent_config: spec(nullable(json<Record<string, number | boolean>>()), {
    shown: shown('agent_config', { whenSet: true }),
  }),
  solution_catalog_id: metadata(nullable(text(64)), { shown: shown('solution_catalog_id', { whenSet: true }) }),
  /** Fault injection for the simulated provisioner (tests). */
  x_test_env: metadata(nullable(text(256))),
  graph_topology_size_bytes: status(bigint(), { default: 0, shown: shown('graph_topology_size_bytes') }),
  /** Meaningful only once `data_observed_at` is set. */
  vertex_count: status(bigint(), { default: 0 }),
  edge_count: status(bigint(), { default: 0 }),
  refresh_status: status(nullable(text(16)), { shown: shown('refresh_status', { whenSet: true }) }),
  refresh_message: status(nullable(text()), { shown: shown('refresh_message', { whenSet: true }) }),
  snapshot_time: status(nullable(bigint()), { shown: shown('snapshot_time', { whenSet: true, time: true }) }),
  /** Last data-plane traffic; not a change of the record (version_number stays). */
  last_activity_at: status(bigint(), { default: NOW }),
  creator: metadata(nullable(text(64)), { shown: shown('creator', { whenSet: true }) }),
  created_at: metadata(bigint(), { default: NOW, shown: shown('created_at', { time: true }) }),
  updated_at: metadata(bigint(), { default: NOW, shown: shown('last_modified_time', { time: true }) }),
  version_number: metadata(integer(), { default: 1, shown: shown('version_number') }),
  // Added by migration 0014.
  /** The size a running update asks for; null: what runs (`size`). */
  desired_size: spec(nullable(text(32)), { target: 'size' }),
  desired_enable_ha: spec(nullable(flag()), { target: 'enable_ha' }),
  /** host:port the gateway proxies to, as the driver reported it. */
  endpoint: status(nullable(text(255))),
  /** The snapshot a read-only workspace serves. */
  snapshot_id: status(nullable(text(128))),
  /** When the vertex and edge counts were last reported; null: never. */
  data_observed_at: status(nullable(bigint())),
  // Added by migration 0035.
  /** The version a running upgrade moves to; null: what runs (`tg_version`). */
  upgrade_tg_version: spec(nullable(text(32)), { target: 'tg_version' }),
  /** The backup whose data a running restore brings back. */
  restore_backup_id: spec(nullable(text(36)), { asked: true }),
  // Added by migration 0040.
  /** When the waiting upgrade was asked for (null: none waits, or it was asked before this was kept). */
  upgrade_requested_at: metadata(nullable(bigint()), {
    shown: shown('upgrade_requested_at', { whenSet: true, time: true }),
  }),
  /** The API key that asked for it. */
  upgrade_requested_by: metadata(nullable(text(64)), { shown: shown('upgrade_requested_by', { whenSet: true }) }),
};

export const workspaceModel = model('workspaces', fields);

/** The table as Kysely sees it (src/store/schema.ts). */
export type WorkspaceColumns = ColumnsOf<typeof fields>;
/** A workspace as the domain sees it: booleans as booleans, JSON columns parsed. */
export type Workspace = RowOf<typeof fields>;
/** What a new workspace is made of: see `newWorkspace`. */
export type NewWorkspace = GivenOf<typeof fields>;

/** A workspace from a row of the table, or from the JSON of one the record views build. */
export const workspaceFromRow = workspaceModel.fromRow;

/** The columns of a workspace, or of the part of it a change writes. */
export const workspaceColumns = workspaceModel.toColumns;

/** A new workspace: what is given, the declared defaults for the rest; its times are `now`. */
export const newWorkspace = (given: NewWorkspace, now: number): Workspace => workspaceModel.newRow(given, now);

type Targets = TargetsOf<typeof fields>;
/** The fields an operation changes through a target (`size` through `desired_size`…). */
type Targeted = keyof Targets;

const targetOf = new Map(workspaceModel.targets.map((t) => [t.status, t.spec as Targets[Targeted]]));

/** What the workspace asks for of a field an operation changes: the target, or what runs. */
export function desired<K extends Targeted>(ws: Workspace, field: K): Workspace[K] {
  return (ws[targetOf.get(field)!] ?? ws[field]) as Workspace[K];
}

/**
 * Whether the workspace asks for another value of any of `fields` than what runs (a running
 * update's targets); of any targeted field when none is named.
 */
export const asksForChange = (ws: Workspace, ...fields: Targeted[]): boolean =>
  (fields.length > 0 ? fields : [...targetOf.keys()]).some((field) => ws[targetOf.get(field)!] !== null);

/** Changes that leave nothing asked (no target, no backup to restore): part of what ends an operation either way. */
export const nothingAsked = Object.fromEntries(workspaceModel.asked.map((spec) => [spec, null])) as {
  readonly [K in AskedOf<typeof fields>]: null;
};
