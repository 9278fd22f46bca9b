import type { CloudProviderRecord } from '../../client/index.js';
import type {
  StateBackupSchedule,
  StateFile,
  StateGraph,
  StateSchedule,
  StateWebhook,
  StateWorkgroup,
  StateWorkspace,
} from '../../schemas/state-file.js';
import type { UpdateWorkspaceBody } from '../../schemas/workspace.js';
import { backupScheduleOf, scheduleKey, scheduleOf, workspaceSettings } from './export.js';
import { StateFileError } from './file.js';
import { nameKey, providerLabel, type LiveState, type LiveWorkgroup, type LiveWorkspace } from './read.js';

export const actions = ['create', 'update', 'delete', 'unchanged', 'skip'] as const;
export type Action = (typeof actions)[number];

/** What one change does, with what the executor needs (names, not ids: ids come as it goes). */
export type Step =
  | { kind: 'workgroup'; create?: { cloud_provider_id: string; body: StateWorkgroup }; update?: StateWorkgroup }
  | { kind: 'allow_list'; workgroup: string; cidr: string; note?: string; id?: string }
  | { kind: 'workspace'; workgroup: string; desired?: StateWorkspace; update?: UpdateWorkspaceBody; id?: string }
  | { kind: 'db_user'; workgroup: string; workspace: string; username: string; passwordEnv?: string; at: string }
  | { kind: 'schedule'; workgroup: string; workspace: string; schedule: StateSchedule; id?: string }
  | { kind: 'backup_schedule'; workgroup: string; workspace: string; body: StateBackupSchedule }
  | { kind: 'graph'; workgroup: string; workspace: string; graph: StateGraph; passwordEnv?: string; at: string }
  | { kind: 'database'; workgroup: string; id?: string }
  | { kind: 'addon'; addonsId: string; enabled: boolean }
  | { kind: 'webhook'; url: string; body?: StateWebhook; id?: string };

export interface Change {
  action: Action;
  kind: Step['kind'];
  /** Where it is: workgroup/workspace/… by name. */
  name: string;
  /** The fields an update changes, or why a change is skipped. */
  detail?: string;
  step: Step;
}

export interface Plan {
  changes: Change[];
  /** How many of each action. */
  summary: Record<Action, number>;
}

/** Fields only a new resource takes: a difference cannot be applied to the existing one. */
const workspaceCreateOnly = ['database', 'is_rw'] as const;
const workspaceUpdatable = [
  'workspace_type_name',
  'enable_ha',
  'auto_stop_minutes',
  'enable_auto_start',
  'auto_upgrade_state',
  'update_strategy',
  'maintenance_window_day_of_week',
  'maintenance_window_hour_of_day',
  'maintenance_window_interval_weeks',
  'maintenance_window_time_zone',
] as const;

const sameAddons = (a: StateWorkspace['addons'], b: StateWorkspace['addons']) => {
  const text = (x: StateWorkspace['addons']) =>
    JSON.stringify([...(x ?? [])].sort((p, q) => (p.addons_id < q.addons_id ? -1 : 1)));
  return text(a) === text(b);
};

function findProvider(providers: CloudProviderRecord[], label: string): CloudProviderRecord | undefined {
  const key = nameKey(label);
  return (
    providers.find((p) => nameKey(providerLabel(p)) === key) ??
    providers.find((p) => p.id === label || nameKey(p.name ?? '') === key)
  );
}

class Planner {
  readonly changes: Change[] = [];
  constructor(
    private readonly source: string,
    private readonly prune: boolean,
    private readonly server: LiveState['server'],
  ) {}

  add(action: Action, step: Step, name: string, detail?: string) {
    this.changes.push({ action, kind: step.kind, name, ...(detail ? { detail } : {}), step });
  }

  fail(at: string, reason: string): never {
    throw new StateFileError(this.source, at, reason);
  }

  workgroup(want: StateWorkgroup, live: LiveWorkgroup | undefined, at: string, providers: CloudProviderRecord[]) {
    const provider = findProvider(providers, want.provider);
    if (!provider)
      this.fail(
        `${at}.provider`,
        `no cloud provider "${want.provider}" (platform/region, e.g. aws/us-east-1, or a name)`,
      );
    if (!live) {
      this.add('create', { kind: 'workgroup', create: { cloud_provider_id: provider.id, body: want } }, want.name);
    } else {
      const r = live.record;
      if (r.cloud_provider_id !== provider.id)
        this.fail(`${at}.provider`, `the workgroup is on ${live.provider}: a workgroup does not move`);
      const changed: string[] = [];
      if (want.enable_application_log !== undefined && want.enable_application_log !== r.enable_application_log)
        changed.push('enable_application_log');
      if (want.enable_encryption !== undefined && want.enable_encryption !== (r.encryption_method !== undefined)) {
        if (!want.enable_encryption) this.fail(`${at}.enable_encryption`, 'encryption at rest cannot be turned off');
        changed.push('enable_encryption');
      }
      if (want.enable_allow_list !== undefined && want.enable_allow_list !== r.enable_allow_list)
        changed.push('enable_allow_list');
      this.add(
        changed.length ? 'update' : 'unchanged',
        { kind: 'workgroup', ...(changed.length ? { update: want } : {}) },
        want.name,
        changed.join(', ') || undefined,
      );
    }
    this.allowList(want, live);
    const liveByName = new Map((live?.workspaces ?? []).map((w) => [nameKey(w.record.name), w]));
    (want.workspaces ?? []).forEach((ws, j) =>
      this.workspace(want.name, ws, liveByName.get(nameKey(ws.name)), `${at}.workspaces[${j}]`),
    );
  }

  allowList(want: StateWorkgroup, live: LiveWorkgroup | undefined) {
    if (want.allow_list === undefined) return;
    const liveEntries = new Map((live?.allowList ?? []).map((e) => [e.cidr, e]));
    const wanted = new Set<string>();
    for (const e of want.allow_list) {
      const found = liveEntries.get(e.cidr);
      wanted.add(e.cidr);
      const name = `${want.name}/allow_list/${e.cidr}`;
      const step = {
        kind: 'allow_list' as const,
        workgroup: want.name,
        cidr: e.cidr,
        ...(e.note ? { note: e.note } : {}),
      };
      if (!found) this.add('create', step, name);
      else if ((found.note ?? '') !== (e.note ?? '')) this.add('update', { ...step, id: found.id }, name, 'note');
      else this.add('unchanged', step, name);
    }
    if (this.prune)
      for (const e of live?.allowList ?? [])
        if (!wanted.has(e.cidr))
          this.add(
            'delete',
            { kind: 'allow_list', workgroup: want.name, cidr: e.cidr, id: e.id },
            `${want.name}/allow_list/${e.cidr}`,
          );
  }

  workspace(wg: string, want: StateWorkspace, live: LiveWorkspace | undefined, at: string) {
    const name = `${wg}/${want.name}`;
    if (!live) {
      this.add('create', { kind: 'workspace', workgroup: wg, desired: want }, name);
    } else {
      const have = workspaceSettings(live.record);
      for (const field of workspaceCreateOnly) {
        const value = want[field];
        const current = have[field];
        if (
          value !== undefined &&
          (field === 'database' ? nameKey(String(value)) !== nameKey(String(current)) : value !== current)
        )
          this.fail(`${at}.${field}`, `is ${String(current)} on the server, and only a new workspace takes it`);
      }
      const update: Record<string, unknown> = {};
      for (const field of workspaceUpdatable)
        if (want[field] !== undefined && want[field] !== have[field]) update[field] = want[field];
      if (want.tg_version !== undefined && want.tg_version !== have.tg_version)
        update.desired_tg_version = want.tg_version;
      if (
        want.addons !== undefined &&
        !sameAddons(
          want.addons,
          live.record.addons.map((a) => ({ addons_id: a.addons_id, enable: a.enable })),
        )
      )
        update.addons = want.addons;
      // Size and HA go together in one resize.
      if (update.enable_ha !== undefined || update.workspace_type_name !== undefined) {
        update.workspace_type_name ??= have.workspace_type_name;
        update.enable_ha ??= have.enable_ha;
      }
      const fields = Object.keys(update);
      this.add(
        fields.length ? 'update' : 'unchanged',
        {
          kind: 'workspace',
          workgroup: wg,
          ...(fields.length ? { update: update as UpdateWorkspaceBody } : {}),
          id: live.record.workspace_id,
        },
        name,
        fields.join(', ') || undefined,
      );
    }
    this.children(wg, want, live, at);
  }

  children(wg: string, want: StateWorkspace, live: LiveWorkspace | undefined, at: string) {
    const base = { workgroup: wg, workspace: want.name };
    const name = `${wg}/${want.name}`;
    if (want.db_users !== undefined) {
      const have = new Set((live?.dbUsers ?? []).map((u) => u.username));
      want.db_users.forEach((u, k) => {
        const step = {
          kind: 'db_user' as const,
          ...base,
          username: u.username,
          at: `${at}.db_users[${k}].password_env`,
        };
        // A password cannot be read back, so an existing user is left as it is.
        if (have.has(u.username)) this.add('unchanged', step, `${name}/db_users/${u.username}`);
        else this.add('create', { ...step, passwordEnv: u.password_env }, `${name}/db_users/${u.username}`);
      });
      if (this.prune) {
        const wanted = new Set(want.db_users.map((u) => u.username));
        for (const u of live?.dbUsers ?? [])
          if (!wanted.has(u.username))
            this.add(
              'delete',
              { kind: 'db_user', ...base, username: u.username, at },
              `${name}/db_users/${u.username}`,
            );
      }
    }
    if (want.schedules !== undefined) {
      const have = new Map((live?.schedules ?? []).map((s) => [scheduleKey(scheduleOf(s)), s]));
      const wanted = new Set<string>();
      for (const s of want.schedules) {
        const key = scheduleKey(s);
        wanted.add(key);
        const label = `${name}/schedules/${s.action ?? 'resize'} ${s.repeat} ${s.time}`;
        this.add(have.has(key) ? 'unchanged' : 'create', { kind: 'schedule', ...base, schedule: s }, label);
      }
      if (this.prune)
        for (const [key, s] of have)
          if (!wanted.has(key))
            this.add(
              'delete',
              { kind: 'schedule', ...base, schedule: scheduleOf(s), id: s.id },
              `${name}/schedules/${s.action} ${s.repeat} ${s.time}`,
            );
    }
    if (want.backup_schedule !== undefined) {
      const have = live?.backupSchedule ? backupScheduleOf(live.backupSchedule) : undefined;
      const wantB = want.backup_schedule;
      const changed = (Object.keys(wantB) as Array<keyof StateBackupSchedule>).filter((k) => wantB[k] !== have?.[k]);
      this.add(
        !have ? 'create' : changed.length ? 'update' : 'unchanged',
        { kind: 'backup_schedule', ...base, body: wantB },
        `${name}/backup_schedule`,
        have && changed.length ? changed.join(', ') : undefined,
      );
    }
    if (want.graph !== undefined) this.graph(base, want.graph, live, `${at}.graph`, want);
  }

  /**
   * A graph is loaded once, into a workspace this apply makes (its graph is empty then), and
   * only where workspaces hold graphs: a later apply leaves the data to the applications.
   */
  graph(
    base: { workgroup: string; workspace: string },
    graph: StateGraph,
    live: LiveWorkspace | undefined,
    at: string,
    want: StateWorkspace,
  ) {
    const name = `${base.workgroup}/${base.workspace}/graph`;
    const user = want.db_users?.find((u) => nameKey(u.username) === nameKey(graph.as_user));
    const step = {
      kind: 'graph' as const,
      ...base,
      graph,
      at,
      ...(user?.password_env ? { passwordEnv: user.password_env } : {}),
    };
    if (live !== undefined) this.add('skip', step, name, 'the workspace exists: its graph is left as it is');
    else if (this.server?.driver !== 'local')
      this.add('skip', step, name, `the server's driver (${this.server?.driver ?? 'unknown'}) keeps no graph`);
    else this.add('create', step, name, graph.as_user);
  }

  /** Databases: those listed must be there; with prune, those no workspace of the file uses go. */
  databases(want: StateWorkgroup, live: LiveWorkgroup | undefined) {
    const liveDbs = live?.record.tg_databases ?? [];
    const byName = new Set(liveDbs.map((d) => nameKey(d.name)));
    const used = new Set<string>();
    for (const ws of want.workspaces ?? []) {
      const found = live?.workspaces.find((w) => nameKey(w.record.name) === nameKey(ws.name));
      const db = ws.database ?? found?.record.database_name;
      if (db !== undefined) used.add(nameKey(db));
    }
    for (const db of want.databases ?? []) {
      const name = `${want.name}/databases/${db.name}`;
      if (byName.has(nameKey(db.name)) || used.has(nameKey(db.name)))
        this.add('unchanged', { kind: 'database', workgroup: want.name }, name);
      else
        this.add('skip', { kind: 'database', workgroup: want.name }, name, 'a workspace makes the database it names');
      used.add(nameKey(db.name));
    }
    if (!this.prune || (want.workspaces === undefined && want.databases === undefined)) return;
    for (const d of liveDbs)
      if (!used.has(nameKey(d.name)))
        this.add(
          'delete',
          { kind: 'database', workgroup: want.name, id: d.database_id },
          `${want.name}/databases/${d.name}`,
        );
  }

  pruneWorkspaces(want: StateWorkgroup, live: LiveWorkgroup) {
    this.databases(want, live);
    if (!this.prune || want.workspaces === undefined) return;
    const wanted = new Set(want.workspaces.map((w) => nameKey(w.name)));
    for (const w of live.workspaces)
      if (!wanted.has(nameKey(w.record.name)))
        this.add(
          'delete',
          { kind: 'workspace', workgroup: want.name, id: w.record.workspace_id },
          `${want.name}/${w.record.name}`,
        );
  }

  /** Installed add-ons: installed, enabled or disabled as the file says; never uninstalled. */
  addons(want: StateFile['addons'], live: LiveState) {
    (want ?? []).forEach((a, i) => {
      const entry = live.catalog.find((c) => c.unique_name === a.name);
      if (!entry) this.fail(`addons[${i}].name`, `no add-on "${a.name}" in the catalog`);
      const installed = live.installed.find((x) => x.addons_id === entry.addons_id);
      const step = { kind: 'addon' as const, addonsId: entry.addons_id, enabled: a.enabled };
      if (!installed) this.add('create', step, `addons/${a.name}`);
      else if (installed.enabled !== a.enabled) this.add('update', step, `addons/${a.name}`, 'enabled');
      else this.add('unchanged', step, `addons/${a.name}`);
    });
  }

  webhooks(want: StateWebhook[] | undefined, live: LiveState['webhooks']) {
    if (want === undefined) return;
    const have = new Map(live.map((w) => [w.url, w]));
    const types = (t?: readonly string[]) => JSON.stringify([...(t ?? [])].sort());
    for (const w of want) {
      const found = have.get(w.url);
      if (!found) this.add('create', { kind: 'webhook', url: w.url, body: w }, w.url);
      // A webhook has no update: a change of its event types replaces it (and its secret).
      else if (types(found.event_types) !== types(w.event_types))
        this.add('update', { kind: 'webhook', url: w.url, body: w, id: found.webhook_id }, w.url, 'event_types');
      else this.add('unchanged', { kind: 'webhook', url: w.url }, w.url);
    }
    if (this.prune) {
      const wanted = new Set(want.map((w) => w.url));
      for (const w of live)
        if (!wanted.has(w.url)) this.add('delete', { kind: 'webhook', url: w.url, id: w.webhook_id }, w.url);
    }
  }
}

/**
 * What makes the server match the file: per resource create, update, unchanged, or (with
 * prune) delete. Resources are matched by name (allow-list entries by CIDR, schedules by all
 * their fields, webhooks by URL). Sections the file leaves out are not looked at; with prune,
 * what a listed section does not name is deleted, and workgroups the file does not name too.
 */
export function planState(file: StateFile, live: LiveState, opts: { prune?: boolean; source?: string } = {}): Plan {
  const p = new Planner(opts.source ?? 'state file', opts.prune === true, live.server);
  p.addons(file.addons, live);
  const liveWgs = new Map(live.workgroups.map((w) => [nameKey(w.record.name), w]));
  const wanted = file.workgroups ?? [];
  wanted.forEach((wg, i) => p.workgroup(wg, liveWgs.get(nameKey(wg.name)), `workgroups[${i}]`, live.providers));
  for (const wg of wanted) {
    const found = liveWgs.get(nameKey(wg.name));
    if (found) p.pruneWorkspaces(wg, found);
    else p.databases(wg, undefined);
  }
  if (opts.prune && file.workgroups !== undefined) {
    const names = new Set(wanted.map((w) => nameKey(w.name)));
    for (const wg of live.workgroups)
      if (!names.has(nameKey(wg.record.name))) {
        for (const ws of wg.workspaces)
          p.add(
            'delete',
            { kind: 'workspace', workgroup: wg.record.name, id: ws.record.workspace_id },
            `${wg.record.name}/${ws.record.name}`,
          );
        for (const d of wg.record.tg_databases)
          p.add(
            'delete',
            { kind: 'database', workgroup: wg.record.name, id: d.database_id },
            `${wg.record.name}/databases/${d.name}`,
          );
        p.add('delete', { kind: 'workgroup' }, wg.record.name);
      }
  }
  p.webhooks(file.webhooks, live.webhooks);
  const summary = Object.fromEntries(actions.map((a) => [a, 0])) as Record<Action, number>;
  for (const c of p.changes) summary[c.action]++;
  return { changes: p.changes, summary };
}

/** Whether applying the plan would change anything. */
export const hasChanges = (plan: Plan) => plan.summary.create + plan.summary.update + plan.summary.delete > 0;
