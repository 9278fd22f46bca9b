import { Type, type Static } from '@sinclair/typebox';
import { Body, Name, StringEnum } from './helpers.js';
import { eventTypes } from './event.js';
import { repeats, scheduleActions } from './vocabulary.js';
import { autoUpgradeStates, updateStrategies } from './workspace.js';

const Opt = Type.Optional;

/**
 * The state file of `acacia export` and `acacia apply`: an organisation's resources named by
 * name (ids differ between servers), nested as they belong. Every object is strict (unknown
 * fields are refused, with the path to them), and secrets are never in it: they are named
 * by the environment variable that holds them (`password_env`).
 */
export const STATE_API_VERSION = 'acacia/v1';
export const STATE_KIND = 'State';

/** An environment variable's name. */
const EnvName = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 128 });

export const StateDbUser = Body({
  username: Type.String({ minLength: 1, maxLength: 256 }),
  password_env: EnvName,
});

export const StateSchedule = Body({
  action: Opt(StringEnum(scheduleActions)),
  repeat: StringEnum(repeats),
  date: Opt(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, when repeat is once' })),
  repeat_on: Opt(Type.String({ maxLength: 64, description: 'weekly: comma-separated Sun,Mon,…' })),
  time: Type.String({ maxLength: 5, description: 'HH:mm, 24-hour' }),
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
  workspace_type_name: Opt(Type.String({ minLength: 1, maxLength: 32 })),
});
export type StateSchedule = Static<typeof StateSchedule>;

export const StateBackupSchedule = Body({
  schedule: Type.String({ minLength: 1, maxLength: 128, description: '5-field cron expression, UTC' }),
  max_backup_files: Opt(Type.Integer({ minimum: 1, maximum: 1000 })),
  max_reserved_days: Opt(Type.Integer({ minimum: 1, maximum: 3650 })),
  max_retry: Opt(Type.Integer({ minimum: 0, maximum: 10 })),
  pause: Opt(Type.Boolean()),
});
export type StateBackupSchedule = Static<typeof StateBackupSchedule>;

export const StateAddon = Body({
  addons_id: Type.String({ minLength: 1, maxLength: 64 }),
  enable: Type.Boolean(),
});

/**
 * Graph contents for the local driver, loaded through the gateway into a workspace the apply
 * makes, as one of its db users; paths are relative to the state file.
 */
export const StateGraph = Body({
  as_user: Type.String({ minLength: 1, maxLength: 64, description: "one of the workspace's db_users" }),
  gsql: Opt(Type.String({ minLength: 1, maxLength: 1024, description: 'a file of GSQL DDL statements' })),
  load: Opt(
    Type.Array(
      Body({
        file: Type.String({ minLength: 1, maxLength: 1024, description: 'a JSON file of a REST++ upsert body' }),
        graph: Type.String({ minLength: 1, maxLength: 64 }),
      }),
      { maxItems: 256 },
    ),
  ),
});

export type StateGraph = Static<typeof StateGraph>;

export const StateWorkspace = Body({
  name: Name,
  database: Opt(Type.String({ ...Name, description: 'the database it creates, or attaches to when read-only' })),
  workspace_type_name: Opt(Type.String({ minLength: 1, maxLength: 32 })),
  tg_version: Opt(Type.String({ minLength: 1, maxLength: 32 })),
  is_rw: Opt(Type.Boolean()),
  enable_ha: Opt(Type.Boolean()),
  auto_stop_minutes: Opt(Type.Integer({ minimum: 0, maximum: 10080 })),
  enable_auto_start: Opt(Type.Boolean()),
  auto_upgrade_state: Opt(StringEnum(autoUpgradeStates)),
  update_strategy: Opt(StringEnum(updateStrategies)),
  maintenance_window_day_of_week: Opt(Type.Integer({ minimum: 0, maximum: 6 })),
  maintenance_window_hour_of_day: Opt(Type.Integer({ minimum: 0, maximum: 23 })),
  maintenance_window_interval_weeks: Opt(Type.Integer({ minimum: 1, maximum: 4 })),
  maintenance_window_time_zone: Opt(Type.String({ minLength: 1, maxLength: 64 })),
  addons: Opt(Type.Array(StateAddon, { maxItems: 32 })),
  db_users: Opt(Type.Array(StateDbUser, { maxItems: 1000 })),
  schedules: Opt(Type.Array(StateSchedule, { maxItems: 1000 })),
  backup_schedule: Opt(StateBackupSchedule),
  graph: Opt(StateGraph),
});
export type StateWorkspace = Static<typeof StateWorkspace>;

export const StateAllowListEntry = Body({
  cidr: Type.String({ minLength: 1, maxLength: 64 }),
  note: Opt(Type.String({ maxLength: 256 })),
});

export const StateWorkgroup = Body({
  name: Name,
  provider: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'platform/region of a public provider (aws/us-east-1), or a provider name',
  }),
  enable_application_log: Opt(Type.Boolean()),
  enable_encryption: Opt(Type.Boolean()),
  enable_allow_list: Opt(Type.Boolean()),
  allow_list: Opt(Type.Array(StateAllowListEntry, { maxItems: 1000 })),
  databases: Opt(
    Type.Array(Body({ name: Name }), {
      maxItems: 1000,
      description: 'databases no workspace is attached to (a workspace makes the database it names)',
    }),
  ),
  workspaces: Opt(Type.Array(StateWorkspace, { maxItems: 1000 })),
});
export type StateWorkgroup = Static<typeof StateWorkgroup>;

export const StateWebhook = Body({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  event_types: Opt(Type.Array(StringEnum(eventTypes), { minItems: 1, uniqueItems: true })),
});
export type StateWebhook = Static<typeof StateWebhook>;

/** An add-on the organisation installed, by its catalog name. */
export const StateInstalledAddon = Body({
  name: Type.String({ minLength: 1, maxLength: 64, description: "the add-on's unique_name in the catalog" }),
  enabled: Type.Boolean(),
});
export type StateInstalledAddon = Static<typeof StateInstalledAddon>;

export const StateFile = Body(
  {
    apiVersion: Type.Literal(STATE_API_VERSION),
    kind: Type.Literal(STATE_KIND),
    addons: Opt(Type.Array(StateInstalledAddon, { maxItems: 256 })),
    workgroups: Opt(Type.Array(StateWorkgroup, { maxItems: 1000 })),
    webhooks: Opt(Type.Array(StateWebhook, { maxItems: 1000 })),
  },
  { title: 'Acacia state file' },
);
export type StateFile = Static<typeof StateFile>;
