import { stringify } from 'yaml';
import {
  STATE_API_VERSION,
  STATE_KIND,
  type StateBackupSchedule,
  type StateFile,
  type StateSchedule,
  type StateWorkgroup,
  type StateWorkspace,
} from '../../schemas/state-file.js';
import type { ScheduleRecord, WorkspaceRecord, BackupScheduleRecord } from '../../client/index.js';
import type { LiveState, LiveWorkgroup, LiveWorkspace } from './read.js';

/** Sorts by a text key, so two exports of the same state are byte-equal. */
const sorted = <T>(items: readonly T[], key: (t: T) => string): T[] =>
  [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** The variable an exported db user's password is read from: ACACIA_PASSWORD_<WORKSPACE>_<USER>. */
export function passwordEnvName(workspace: string, username: string): string {
  const part = (s: string) =>
    s
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
  return `ACACIA_PASSWORD_${part(workspace)}_${part(username)}`;
}

/** A schedule as the file holds it (also how apply compares one: schedules have no name). */
export function scheduleOf(s: StateSchedule | ScheduleRecord): StateSchedule {
  return {
    action: s.action ?? 'resize',
    repeat: s.repeat,
    ...(s.date !== undefined && s.date !== '' ? { date: s.date } : {}),
    ...(s.repeat_on !== undefined && s.repeat_on !== '' ? { repeat_on: s.repeat_on } : {}),
    time: s.time,
    timezone: s.timezone,
    ...(s.workspace_type_name !== undefined && s.workspace_type_name !== ''
      ? { workspace_type_name: s.workspace_type_name }
      : {}),
  };
}

export const scheduleKey = (s: StateSchedule) => JSON.stringify(scheduleOf(s));

export function backupScheduleOf(b: BackupScheduleRecord): StateBackupSchedule {
  return {
    schedule: b.schedule,
    max_backup_files: b.max_backup_files,
    max_reserved_days: b.max_reserved_days,
    max_retry: b.max_retry,
    pause: b.pause,
  };
}

/** The settings of a workspace that the file holds, in the file's order. */
export function workspaceSettings(r: WorkspaceRecord): Omit<StateWorkspace, 'name'> {
  return {
    ...(r.database_name !== undefined ? { database: r.database_name } : {}),
    workspace_type_name: (r.desired_workspace_type ?? r.workspace_type).typeName,
    tg_version: r.desired_tg_version ?? r.tg_version,
    is_rw: r.is_rw,
    enable_ha: r.enable_ha,
    auto_stop_minutes: r.auto_stop_minutes,
    enable_auto_start: r.enable_auto_start,
    auto_upgrade_state: r.auto_upgrade_state,
    update_strategy: r.update_strategy,
    maintenance_window_day_of_week: r.maintenance_window_day_of_week,
    maintenance_window_hour_of_day: r.maintenance_window_hour_of_day,
    maintenance_window_interval_weeks: r.maintenance_window_interval_weeks,
    maintenance_window_time_zone: r.maintenance_window_time_zone,
  };
}

function exportWorkspace(live: LiveWorkspace): StateWorkspace {
  const r = live.record;
  const addons = sorted(
    r.addons.map((a) => ({ addons_id: a.addons_id, enable: a.enable })),
    (a) => a.addons_id,
  );
  return {
    name: r.name,
    ...workspaceSettings(r),
    ...(addons.length > 0 ? { addons } : {}),
    ...(live.dbUsers.length > 0
      ? {
          db_users: sorted(live.dbUsers, (u) => u.username).map((u) => ({
            username: u.username,
            password_env: passwordEnvName(r.name, u.username),
          })),
        }
      : {}),
    ...(live.schedules.length > 0 ? { schedules: sorted(live.schedules.map(scheduleOf), scheduleKey) } : {}),
    ...(live.backupSchedule ? { backup_schedule: backupScheduleOf(live.backupSchedule) } : {}),
  };
}

function exportWorkgroup(live: LiveWorkgroup): StateWorkgroup {
  const r = live.record;
  const workspaces = sorted(live.workspaces, (w) => w.record.name).map(exportWorkspace);
  const databases = sorted(
    r.tg_databases.filter((d) => d.workspaces.length === 0),
    (d) => d.name,
  ).map((d) => ({ name: d.name }));
  return {
    name: r.name,
    provider: live.provider,
    enable_application_log: r.enable_application_log,
    enable_encryption: r.encryption_method !== undefined,
    enable_allow_list: r.enable_allow_list,
    ...(live.allowList.length > 0
      ? {
          allow_list: sorted(live.allowList, (e) => e.cidr).map((e) => ({
            cidr: e.cidr,
            ...(e.note ? { note: e.note } : {}),
          })),
        }
      : {}),
    ...(databases.length > 0 ? { databases } : {}),
    ...(workspaces.length > 0 ? { workspaces } : {}),
  };
}

/** The state file of what the server holds: names, not ids; sorted; no secrets. */
export function exportState(live: LiveState): StateFile {
  return {
    apiVersion: STATE_API_VERSION,
    kind: STATE_KIND,
    addons: sorted(live.installed, (a) => a.unique_name).map((a) => ({ name: a.unique_name, enabled: a.enabled })),
    workgroups: sorted(live.workgroups, (w) => w.record.name).map(exportWorkgroup),
    webhooks: sorted(live.webhooks, (w) => w.url).map((w) => ({
      url: w.url,
      ...(w.event_types ? { event_types: [...w.event_types].sort() } : {}),
    })),
  };
}

export function stateYaml(state: StateFile): string {
  return stringify(state, { lineWidth: 0 });
}
