import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloudProviderRecord, WorkgroupRecord, WorkspaceRecord } from '../../client/index.js';
import type { StateFile } from '../../schemas/state-file.js';
import { secretsOf } from './apply.js';
import { StateFileError } from './file.js';
import { hasChanges, planState } from './plan.js';
import type { LiveState } from './read.js';

const provider = { id: 'p1', type: 'public', platform: 'aws', region: 'us-east-1' } as CloudProviderRecord;

function workspace(name: string, extra: Partial<WorkspaceRecord> = {}): WorkspaceRecord {
  return {
    workspace_id: `id-${name}`,
    name,
    workgroup_id: 'wg1',
    database_id: `db-${name}`,
    database_name: `${name}-db`,
    workspace_type: { typeName: 'TG-00', ha: 1 },
    tg_version: '4.2.0',
    is_rw: true,
    enable_ha: false,
    auto_stop_minutes: 0,
    enable_auto_start: false,
    auto_upgrade_state: 'enabled',
    update_strategy: 'immediate',
    maintenance_window_day_of_week: 0,
    maintenance_window_hour_of_day: 2,
    maintenance_window_interval_weeks: 1,
    maintenance_window_time_zone: 'UTC',
    addons: [],
    status: 'Active',
    ...extra,
  } as WorkspaceRecord;
}

function live(workspaces: WorkspaceRecord[] = []): LiveState {
  const record = {
    workgroup_id: 'wg1',
    name: 'demo',
    cloud_provider_id: 'p1',
    enable_application_log: false,
    enable_allow_list: false,
    tg_databases: workspaces.map((w) => ({ database_id: w.database_id, name: w.database_name, workspaces: [w] })),
    workspaces,
  } as unknown as WorkgroupRecord;
  return {
    catalog: [],
    installed: [],
    providers: [provider],
    webhooks: [],
    workgroups: [
      {
        record,
        provider: 'aws/us-east-1',
        allowList: [{ id: 'e1', cidr: '10.0.0.0/8', created_at: '' }],
        workspaces: workspaces.map((w) => ({
          record: w,
          dbUsers: [],
          schedules: [],
          backupSchedule: undefined,
        })),
      },
    ],
  };
}

const file = (workgroups: StateFile['workgroups']): StateFile => ({
  apiVersion: 'acacia/v1',
  kind: 'State',
  workgroups,
});
const brief = (plan: ReturnType<typeof planState>) =>
  plan.changes.map((c) => `${c.action} ${c.kind} ${c.name}${c.detail ? ` (${c.detail})` : ''}`);

describe('the plan of a state file', () => {
  it('creates what the server does not have, in the order of the file', () => {
    const plan = planState(
      file([
        {
          name: 'new',
          provider: 'aws/us-east-1',
          allow_list: [{ cidr: '1.2.3.4/32' }],
          workspaces: [{ name: 'w', db_users: [{ username: 'u', password_env: 'PW' }] }],
        },
      ]),
      live(),
    );
    assert.deepEqual(brief(plan), [
      'create workgroup new',
      'create allow_list new/allow_list/1.2.3.4/32',
      'create workspace new/w',
      'create db_user new/w/db_users/u',
    ]);
    assert.equal(hasChanges(plan), true);
  });

  it('finds nothing to do when the server matches; fields left out are not looked at', () => {
    const plan = planState(
      file([
        {
          name: 'DEMO',
          provider: 'aws/us-east-1',
          workspaces: [{ name: 'w', workspace_type_name: 'TG-00', auto_stop_minutes: 0 }],
        },
      ]),
      live([workspace('w')]),
    );
    assert.deepEqual(brief(plan), ['unchanged workgroup DEMO', 'unchanged workspace DEMO/w']);
    assert.equal(hasChanges(plan), false);
  });

  it('updates only the fields that differ; size and HA go together', () => {
    const plan = planState(
      file([
        { name: 'demo', provider: 'aws/us-east-1', workspaces: [{ name: 'w', enable_ha: true, auto_stop_minutes: 5 }] },
      ]),
      live([workspace('w')]),
    );
    const update = plan.changes.find((c) => c.kind === 'workspace')!;
    assert.equal(update.action, 'update');
    assert.equal(update.detail, 'enable_ha, auto_stop_minutes, workspace_type_name');
    assert.deepEqual(update.step.kind === 'workspace' && update.step.update, {
      enable_ha: true,
      auto_stop_minutes: 5,
      workspace_type_name: 'TG-00',
    });
  });

  it('deletes only with prune, and only in the sections the file lists', () => {
    const want = file([{ name: 'demo', provider: 'aws/us-east-1', allow_list: [], workspaces: [] }]);
    assert.equal(hasChanges(planState(want, live([workspace('w')]))), false);
    const pruned = planState(want, live([workspace('w')]), { prune: true });
    assert.deepEqual(
      brief(pruned).filter((c) => c.startsWith('delete')),
      [
        'delete allow_list demo/allow_list/10.0.0.0/8',
        'delete database demo/databases/w-db',
        'delete workspace demo/w',
      ],
    );
    const untouched = planState(file([{ name: 'demo', provider: 'aws/us-east-1' }]), live([workspace('w')]), {
      prune: true,
    });
    assert.equal(hasChanges(untouched), false);
    const everything = planState(file([]), live([workspace('w')]), { prune: true });
    assert.deepEqual(
      brief(everything).filter((c) => c.startsWith('delete')),
      ['delete workspace demo/w', 'delete database demo/databases/w-db', 'delete workgroup demo'],
    );
  });

  it('refuses a change only a new resource takes, naming the path', () => {
    assert.throws(
      () =>
        planState(
          file([{ name: 'demo', provider: 'aws/us-east-1', workspaces: [{ name: 'w', is_rw: false }] }]),
          live([workspace('w')]),
          { source: 's.yaml' },
        ),
      (err: unknown) => err instanceof StateFileError && err.at === 'workgroups[0].workspaces[0].is_rw',
    );
    assert.throws(
      () => planState(file([{ name: 'demo', provider: 'gcp/nowhere' }]), live()),
      (err: unknown) => err instanceof StateFileError && err.at === 'workgroups[0].provider',
    );
  });

  it('needs the password variable of every user it creates, before anything is applied', () => {
    const plan = planState(
      file([
        {
          name: 'demo',
          provider: 'aws/us-east-1',
          workspaces: [{ name: 'w', db_users: [{ username: 'u', password_env: 'PW' }] }],
        },
      ]),
      live([workspace('w')]),
    );
    assert.throws(
      () => secretsOf(plan, 's.yaml', {}),
      (err: unknown) =>
        err instanceof StateFileError && err.at === 'workgroups[0].workspaces[0].db_users[0].password_env',
    );
    assert.equal(secretsOf(plan, 's.yaml', { PW: 'secret' }).get('PW'), 'secret');
  });

  it('loads a graph only into a workspace it makes, and only on a server whose workspaces hold graphs', () => {
    const graph = { as_user: 'u', gsql: 'schema.gsql' };
    const wanted = file([
      {
        name: 'demo',
        provider: 'aws/us-east-1',
        workspaces: [{ name: 'w', db_users: [{ username: 'u', password_env: 'PW' }], graph }],
      },
    ]);
    const local = { driver: 'local', gatewayUrl: 'http://127.0.0.1:14240' };
    const graphOf = (state: LiveState) => brief(planState(wanted, state)).filter((c) => c.includes(' graph '));
    assert.deepEqual(graphOf({ ...live(), server: local }), ['create graph demo/w/graph (u)']);
    assert.deepEqual(graphOf({ ...live([workspace('w')]), server: local }), [
      'skip graph demo/w/graph (the workspace exists: its graph is left as it is)',
    ]);
    assert.deepEqual(graphOf({ ...live(), server: { ...local, driver: 'simulated' } }), [
      "skip graph demo/w/graph (the server's driver (simulated) keeps no graph)",
    ]);
    // The user it loads as needs its password, as its creation does.
    assert.throws(
      () => secretsOf(planState(wanted, { ...live(), server: local }), 's.yaml', {}),
      (err: unknown) => err instanceof StateFileError && err.at.endsWith('password_env'),
    );
  });
});
