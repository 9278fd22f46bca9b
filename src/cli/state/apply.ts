import { resultOf, type AcaciaClient } from '../../client/index.js';
import type { StateWorkspace } from '../../schemas/state-file.js';
import { StateFileError } from './file.js';
import { loadGraph, readGraphInput, type GraphInput } from './graph.js';
import type { Change, Plan, Step } from './plan.js';
import { nameKey, type LiveState } from './read.js';

type Of<K extends Step['kind']> = Extract<Step, { kind: K }>;

/** The secrets a plan needs, read from the environment before anything is changed. */
export function secretsOf(plan: Plan, source: string, env: NodeJS.ProcessEnv = process.env): Map<string, string> {
  const secrets = new Map<string, string>();
  for (const c of plan.changes) {
    const { step } = c;
    if ((step.kind !== 'db_user' && step.kind !== 'graph') || c.action !== 'create' || !step.passwordEnv) continue;
    const value = env[step.passwordEnv];
    const user = step.kind === 'db_user' ? step.username : step.graph.as_user;
    if (value === undefined || value === '')
      throw new StateFileError(
        source,
        step.at,
        `the environment variable ${step.passwordEnv} (the password of db user "${user}") is not set`,
      );
    secrets.set(step.passwordEnv, value);
  }
  return secrets;
}

/** The files of the graph sections a plan loads, read before anything is changed. */
export function graphInputsOf(plan: Plan, source: string): Map<Change, GraphInput> {
  const inputs = new Map<Change, GraphInput>();
  for (const c of plan.changes)
    if (c.step.kind === 'graph' && c.action === 'create')
      inputs.set(c, readGraphInput(c.step.graph, source, c.step.at));
  return inputs;
}

/** What applying a plan needs besides the plan: read from the environment and files first. */
export interface ApplyInputs {
  secrets: Map<string, string>;
  graphs: Map<Change, GraphInput>;
}

/**
 * Carries a plan out through the API, in dependency order: workgroups, their allow lists,
 * workspaces (those that make a database before the read-only ones that attach to it, each
 * followed until it is stable), then what hangs off workspaces, webhooks, and deletions last
 * (children before parents). `progress` hears each change as it is made.
 */
export async function applyPlan(
  client: AcaciaClient,
  plan: Plan,
  live: LiveState,
  { secrets, graphs }: ApplyInputs,
  progress: (change: Change) => void = () => {},
): Promise<void> {
  const wgIds = new Map(live.workgroups.map((w) => [nameKey(w.record.name), w.record.workgroup_id]));
  const wsIds = new Map(
    live.workgroups.flatMap((w) =>
      w.workspaces.map((s) => [wsKey(w.record.name, s.record.name), s.record.workspace_id]),
    ),
  );
  const wgId = (name: string) => wgIds.get(nameKey(name))!;
  const wsId = (wg: string, ws: string) => wsIds.get(wsKey(wg, ws))!;
  const pick = <K extends Step['kind']>(kind: K, ...actions: Change['action'][]) =>
    plan.changes.filter((c) => c.kind === kind && actions.includes(c.action)) as Array<Change & { step: Of<K> }>;

  // Add-ons first: a workspace may enable one.
  for (const c of pick('addon', 'create', 'update')) {
    progress(c);
    resultOf(await client.addons.install(c.step.addonsId, { enable: c.step.enabled ? 'true' : 'false' }));
  }

  for (const c of pick('workgroup', 'create', 'update')) {
    progress(c);
    const want = c.step.create?.body ?? c.step.update!;
    if (c.step.create) {
      const created = resultOf(
        await client.workgroups.create({
          cloud_provider_id: c.step.create.cloud_provider_id,
          name: want.name,
          ...(want.enable_application_log !== undefined ? { enable_application_log: want.enable_application_log } : {}),
          ...(want.enable_encryption !== undefined ? { enable_encryption: want.enable_encryption } : {}),
        }),
      );
      wgIds.set(nameKey(want.name), created.workgroup_id);
    } else {
      const current = live.workgroups.find((w) => nameKey(w.record.name) === nameKey(want.name))!.record;
      const body = {
        ...(want.enable_application_log !== undefined && want.enable_application_log !== current.enable_application_log
          ? { enable_application_log: want.enable_application_log }
          : {}),
        ...(want.enable_encryption && current.encryption_method === undefined
          ? { encryption_method: 'TMK' as const }
          : {}),
      };
      if (Object.keys(body).length > 0) resultOf(await client.workgroups.update(wgId(want.name), body));
    }
    if (want.enable_allow_list !== undefined) {
      const id = wgId(want.name);
      resultOf(await (want.enable_allow_list ? client.allowList.enable(id) : client.allowList.disable(id)));
    }
  }

  for (const c of pick('allow_list', 'create', 'update')) {
    progress(c);
    const body = { cidr: c.step.cidr, ...(c.step.note ? { note: c.step.note } : {}) };
    if (c.action === 'create') resultOf(await client.allowList.create(wgId(c.step.workgroup), body));
    else resultOf(await client.allowList.update(wgId(c.step.workgroup), c.step.id!, { ...body, id: c.step.id! }));
  }

  // Workspaces that make a database first: a read-only one attaches to a database by name.
  const workspaces = pick('workspace', 'create', 'update');
  const readOnly = (c: (typeof workspaces)[number]) => c.step.desired?.is_rw === false;
  for (const batch of [workspaces.filter((c) => !readOnly(c)), workspaces.filter(readOnly)]) {
    const started: Array<[string, string]> = [];
    for (const c of batch) {
      progress(c);
      const wg = wgId(c.step.workgroup);
      if (c.step.desired) {
        const body = await createBody(client, wg, c.step.desired);
        const created = resultOf(await client.workspaces.create(wg, body));
        wsIds.set(wsKey(c.step.workgroup, c.step.desired.name), created.workspace_id);
        started.push([wg, created.workspace_id]);
      } else {
        resultOf(await client.workspaces.update(wg, c.step.id!, c.step.update!));
        started.push([wg, c.step.id!]);
      }
    }
    // The next steps need each workspace stable (users, schedules and read-only attachments).
    for (const [wg, ws] of started) await client.waitFor({ workgroup: wg, workspace: ws });
    // What only an update sets, once the new workspace is Active.
    for (const c of batch) {
      const upgrade = c.step.desired?.auto_upgrade_state;
      if (upgrade === undefined) continue;
      const wg = wgId(c.step.workgroup);
      const ws = wsId(c.step.workgroup, c.step.desired!.name);
      const record = resultOf(await client.workspaces.get(wg, ws));
      if (record.auto_upgrade_state === upgrade) continue;
      resultOf(await client.workspaces.update(wg, ws, { auto_upgrade_state: upgrade }));
      await client.waitFor({ workgroup: wg, workspace: ws });
    }
  }

  for (const c of pick('db_user', 'create')) {
    progress(c);
    const password = secrets.get(c.step.passwordEnv!)!;
    resultOf(
      await client.dbUsers.create(wgId(c.step.workgroup), wsId(c.step.workgroup, c.step.workspace), {
        username: c.step.username,
        password,
      }),
    );
  }
  for (const c of pick('graph', 'create')) {
    progress(c);
    const credentials = { username: c.step.graph.as_user, password: secrets.get(c.step.passwordEnv!)! };
    const ws = wsId(c.step.workgroup, c.step.workspace);
    await loadGraph(live.server!.gatewayUrl, ws, credentials, graphs.get(c)!, c.name);
  }
  for (const c of pick('schedule', 'create')) {
    progress(c);
    const ws = wsId(c.step.workgroup, c.step.workspace);
    resultOf(await client.schedules.create(wgId(c.step.workgroup), ws, { ...c.step.schedule, workspace_id: ws }));
  }
  for (const c of pick('backup_schedule', 'create', 'update')) {
    progress(c);
    resultOf(
      await client.backups.setSchedule(wgId(c.step.workgroup), wsId(c.step.workgroup, c.step.workspace), c.step.body),
    );
  }
  for (const c of pick('webhook', 'create', 'update')) {
    progress(c);
    if (c.step.id) resultOf(await client.webhooks.delete(c.step.id));
    resultOf(await client.webhooks.create(c.step.body!));
  }

  // Deletions last, children before parents.
  for (const c of pick('schedule', 'delete')) {
    progress(c);
    resultOf(
      await client.schedules.delete(wgId(c.step.workgroup), wsId(c.step.workgroup, c.step.workspace), c.step.id!),
    );
  }
  for (const c of pick('db_user', 'delete')) {
    progress(c);
    resultOf(
      await client.dbUsers.delete(wgId(c.step.workgroup), wsId(c.step.workgroup, c.step.workspace), {
        username: c.step.username,
      }),
    );
  }
  for (const c of pick('allow_list', 'delete')) {
    progress(c);
    resultOf(await client.allowList.delete(wgId(c.step.workgroup), c.step.id!));
  }
  const deleting: Array<[string, string]> = [];
  for (const c of pick('workspace', 'delete')) {
    progress(c);
    const wg = wgId(c.step.workgroup);
    resultOf(await client.workspaces.delete(wg, c.step.id!));
    deleting.push([wg, c.step.id!]);
  }
  for (const [wg, ws] of deleting) await client.waitFor({ workgroup: wg, workspace: ws, status: 'Deleted' });
  for (const c of pick('database', 'delete')) {
    progress(c);
    resultOf(await client.databases.delete(wgId(c.step.workgroup), c.step.id!));
  }
  for (const c of pick('workgroup', 'delete')) {
    progress(c);
    resultOf(await client.workgroups.delete(wgId(c.name)));
  }
  for (const c of pick('webhook', 'delete')) {
    progress(c);
    resultOf(await client.webhooks.delete(c.step.id!));
  }
}

const wsKey = (wg: string, ws: string) => `${nameKey(wg)}/${nameKey(ws)}`;

/** The create body of a workspace; a read-only one names its database, found by name. */
async function createBody(client: AcaciaClient, wg: string, want: StateWorkspace) {
  const {
    name,
    database,
    auto_upgrade_state: _a,
    db_users: _u,
    schedules: _s,
    backup_schedule: _b,
    graph: _g,
    ...settings
  } = want;
  if (want.is_rw === false && database !== undefined) {
    const db = resultOf(await client.databases.list(wg)).find((d) => nameKey(d.name) === nameKey(database));
    if (db) return { name, ...settings, tg_database_id: db.database_id };
  }
  return { name, ...settings, ...(database !== undefined ? { database_name: database } : {}) };
}
