import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, Name, StringEnum, Timestamp } from './helpers.js';
import { Component, Ref } from './component.js';
import { displayStatus, workspaceStatuses } from './vocabulary.js';

const Opt = Type.Optional;

export const updateStrategies = ['immediate', 'maintenance_window'] as const;
export const autoUpgradeStates = ['enabled', 'disabled'] as const;
export const refreshStatuses = ['InProgress', 'Succeeded', 'Failed'] as const;
/** `condition_type`: the operation in progress, Normal when none. */
export const conditionTypes = [
  'Normal',
  'Create',
  'Pause',
  'Resume',
  'Update',
  'Upgrade',
  'Restore',
  'Refresh',
  'Recover',
  'Delete',
] as const;

export const AddonRef = Component(
  'AddonRef',
  Type.Object(
    {
      addons_id: Type.String(),
      enable: Type.Boolean(),
      enable_configuration: Opt(Type.Union([Type.Object({}, { additionalProperties: true }), Type.String()])),
      is_free: Opt(Type.Boolean()),
      unique_name: Opt(Type.String()),
      workspace_id: Opt(Type.String()),
    },
    { description: 'An add-on and whether it is enabled on the workspace.' },
  ),
);

export const AgentConfig = Component(
  'AgentConfig',
  Type.Object(
    {
      catalog_activity_update_interval_seconds: Opt(Type.Integer()),
      enable_topology_force_update: Opt(Type.Boolean()),
      heartbeat_interval_seconds: Opt(Type.Integer()),
      query_activity_update_interval_seconds: Opt(Type.Integer()),
      topology_update_interval_seconds: Opt(Type.Integer()),
    },
    { description: "Intervals of the workspace's agent, in seconds." },
  ),
);

export const FolderStatistics = Component(
  'FolderStatistics',
  Type.Object(
    {
      backup_size: Type.Integer({ description: "bytes of the database's Succeeded backups" }),
      billed_size: Type.Integer({ description: 'bytes billed: the stored graph' }),
      log_size: Type.Integer({ description: 'bytes of logs' }),
      vector_size: Type.Integer({ description: 'bytes of vector index data' }),
      milvus_size: Type.Integer({ description: "vector index bytes under the real service's name (= vector_size)" }),
      total_size: Type.Integer({ description: "bytes: the sum of the workspaces' sizes" }),
      workspaces: Type.Array(
        Type.Object({ size: Type.Integer({ description: 'bytes' }), workspace_id: Type.String() }),
      ),
    },
    { description: 'Storage of a database and its workspaces, in bytes.' },
  ),
);

export const WorkspaceType = Component(
  'WorkspaceType',
  Type.Object(
    {
      typeName: Type.String({ description: 'the size type, e.g. TG-0' }),
      cpu: Opt(Type.String({ description: 'vCPUs' })),
      memory: Opt(Type.String({ description: 'memory, e.g. 32Gi' })),
      partition: Opt(Type.Integer()),
      ha: Type.Integer({ description: 'replicas: 1, or with high availability 3 up to TG-8 and 2 from TG-16' }),
    },
    {
      description: 'The size of a workspace. cpu, memory and partition are absent for a size no longer in the catalog.',
    },
  ),
);

const statusText =
  'Creating → Active; Active → Pausing → Stopped (or Idle with enable_auto_start); Stopped/Idle → Resuming → Active; ' +
  'Active → Updating, Restoring or Refreshing → Active; any ' +
  'stable status → Deleting → gone; a failed operation → Failed.';

/** The Workspace record of the contract; fields the service has no value for are absent. */
export const WorkspaceRecord = Component(
  'WorkspaceRecord',
  Type.Object(
    {
      workspace_id: Type.String(),
      name: Type.String(),
      workgroup_id: Type.String(),
      workgroup_name: Type.String(),
      database_id: Type.String(),
      database_name: Opt(Type.String()),
      org_id: Type.String(),
      org_name: Type.String(),
      region: Type.String(),
      cloud_provider_id: Opt(Type.String()),
      cloud_provider_name: Opt(Type.String()),
      cloud_provider_short_id: Opt(Type.String()),
      status: StringEnum(workspaceStatuses, { description: statusText }),
      display_status: StringEnum(Object.values(displayStatus), { description: 'a human label for status' }),
      condition_type: StringEnum(conditionTypes, { description: 'the operation in progress; Normal when none' }),
      err_message: Opt(Type.String({ description: 'why the workspace is Failed' })),
      is_rw: Type.Boolean({ description: 'accepts writes; backups need a read-write workspace' }),
      enable_ha: Type.Boolean(),
      replicas: Type.Integer(),
      workspace_type: Ref(WorkspaceType),
      tg_version: Type.String(),
      desired_tg_version: Opt(Type.String({ description: 'an upgrade waiting for its maintenance window' })),
      upgrade_window_start: Opt(
        Type.String({ description: 'RFC 3339: when the waiting upgrade runs, the start of its maintenance window' }),
      ),
      upgrade_requested_at: Opt(Type.String({ description: 'RFC 3339: when the waiting upgrade was asked for' })),
      upgrade_requested_by: Opt(Type.String({ description: 'the API key that asked for the waiting upgrade' })),
      // Extension: while an update changes size or HA, what it asks for; workspace_type is what runs.
      desired_workspace_type: Opt(Ref(WorkspaceType)),
      update_strategy: StringEnum(updateStrategies),
      auto_upgrade_state: StringEnum(autoUpgradeStates),
      auto_stop_minutes: Type.Integer({ description: 'idle minutes before the workspace is paused; 0 = never' }),
      enable_auto_start: Type.Boolean({ description: 'paused workspaces are Idle and start on a gateway request' }),
      enable_assistant: Opt(Type.Boolean()),
      enable_copilot: Type.Boolean({ description: 'the CoPilot add-on is enabled on the workspace' }),
      maintenance_window_day_of_week: Type.Integer({ description: '0 = Sunday' }),
      maintenance_window_hour_of_day: Type.Integer(),
      maintenance_window_interval_weeks: Type.Integer(),
      maintenance_window_time_zone: Type.String(),
      last_maintenance: Opt(Timestamp),
      proxy_host: Type.String({ description: "host that serves the workspace's endpoint on the gateway" }),
      nginx_host: Type.String({ description: "proxy_host under the real service's name" }),
      addons: Type.Array(Ref(AddonRef)),
      agent_config: Opt(Ref(AgentConfig)),
      solution_catalog_id: Opt(Type.String()),
      edge_count: Opt(Type.Integer()),
      vertex_count: Opt(Type.Integer()),
      graph_topology_size_bytes: Type.Integer(),
      size: Type.Integer({ description: "bytes the workspace stores (its entry in the database's folder_statistics)" }),
      refresh_status: Opt(StringEnum(refreshStatuses)),
      refresh_message: Opt(Type.String()),
      snapshot_time: Opt(Timestamp),
      folder_statistics: Ref(FolderStatistics),
      creator: Opt(Type.String()),
      created_at: Timestamp,
      deleted_at: Opt(Timestamp),
      last_modified_time: Timestamp,
      version_number: Type.Integer({ description: 'increments on every change; sent as ETag, compared with If-Match' }),
    },
    { description: 'A workspace: compute in a workgroup, attached to a database.' },
  ),
);
export type WorkspaceRecord = Static<typeof WorkspaceRecord>;

export const DatabaseRecord = Component(
  'DatabaseRecord',
  Type.Object(
    {
      database_id: Type.String(),
      name: Type.String(),
      workgroup_id: Type.String(),
      org_id: Type.String(),
      org_name: Type.String(),
      region: Type.String(),
      tg_version: Type.String(),
      create_time: Timestamp,
      folder_statistics: Ref(FolderStatistics),
      workspaces: Type.Array(Ref(WorkspaceRecord)),
      version_number: Type.Integer(),
    },
    { description: 'A database of a workgroup, with the workspaces attached to it.' },
  ),
);
export type DatabaseRecord = Static<typeof DatabaseRecord>;

// ---- requests --------------------------------------------------------------------------

/** AddonRef in a request: `enable_configuration` may be an object or a string. */
export const AddonRefInput = Component(
  'AddonRefInput',
  Body({
    addons_id: Type.String({ minLength: 1, maxLength: 64 }),
    enable: Type.Boolean(),
    // Free-form: its contents are not checked; maxProperties bounds its fields, MAX_BODY_DEPTH its depth.
    enable_configuration: Opt(
      Type.Union([
        Type.Object({}, { additionalProperties: true, maxProperties: 256 }),
        Type.String({ maxLength: 65536 }),
      ]),
    ),
    is_free: Opt(Type.Boolean()),
    unique_name: Opt(Type.String({ maxLength: 64 })),
    workspace_id: Opt(Type.String({ maxLength: 64 })),
  }),
);

const AddonList = Type.Array(Ref(AddonRefInput), { maxItems: 32 });

export const AgentConfigInput = Component(
  'AgentConfigInput',
  Body({
    catalog_activity_update_interval_seconds: Opt(Type.Integer({ minimum: 1, maximum: 86400 })),
    enable_topology_force_update: Opt(Type.Boolean()),
    heartbeat_interval_seconds: Opt(Type.Integer({ minimum: 1, maximum: 86400 })),
    query_activity_update_interval_seconds: Opt(Type.Integer({ minimum: 1, maximum: 86400 })),
    topology_update_interval_seconds: Opt(Type.Integer({ minimum: 1, maximum: 86400 })),
  }),
);

const maintenanceWindow = {
  maintenance_window_day_of_week: Opt(Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday' })),
  maintenance_window_hour_of_day: Opt(Type.Integer({ minimum: 0, maximum: 23 })),
  maintenance_window_interval_weeks: Opt(Type.Integer({ minimum: 1, maximum: 4 })),
  maintenance_window_time_zone: Opt(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' })),
};

const TestEnvField = Type.String({
  maxLength: 256,
  description: 'reserved for testing: fault injection for the simulated provisioner',
});

export const CreateWorkspaceBody = Component(
  'CreateWorkspaceBody',
  Body({
    addons: Opt(AddonList),
    auto_stop_minutes: Opt(Type.Integer({ minimum: 0, maximum: 10080 })),
    enable_auto_start: Opt(Type.Boolean()),
    enable_ha: Opt(Type.Boolean()),
    is_rw: Opt(Type.Boolean({ description: 'default true; a read-only workspace needs tg_database_id' })),
    ...maintenanceWindow,
    name: Opt(Name),
    database_name: Opt(Name),
    solution_install_request: Opt(
      Body({
        addons: Opt(AddonList),
        data_source_origin: Opt(Type.String({ maxLength: 256 })),
        name: Opt(Type.String({ maxLength: 64 })),
        solution_catalog_id: Opt(Type.String({ maxLength: 64 })),
      }),
    ),
    tg_database_id: Opt(Type.String({ minLength: 1, maxLength: 64 })),
    tg_version: Opt(Type.String({ minLength: 1, maxLength: 32 })),
    update_strategy: Opt(StringEnum(updateStrategies)),
    workspace_type_name: Opt(Type.String({ minLength: 1, maxLength: 32, description: 'a size type, e.g. TG-0' })),
    x_test_env: Opt(TestEnvField),
  }),
);
export type CreateWorkspaceBody = Static<typeof CreateWorkspaceBody>;

export const UpdateWorkspaceBody = Component(
  'UpdateWorkspaceBody',
  Body({
    addons: Opt(AddonList),
    agent_config: Opt(Ref(AgentConfigInput)),
    auto_stop_minutes: Opt(Type.Integer({ minimum: 0, maximum: 10080 })),
    auto_upgrade_state: Opt(StringEnum(autoUpgradeStates)),
    desired_tg_version: Opt(Type.String({ minLength: 1, maxLength: 32 })),
    enable_auto_start: Opt(Type.Boolean()),
    enable_ha: Opt(Type.Boolean()),
    ...maintenanceWindow,
    pause: Opt(Type.Boolean({ description: 'true pauses the workspace, false resumes it' })),
    update_strategy: Opt(StringEnum(updateStrategies)),
    workspace_name: Opt(Name),
    workspace_type_name: Opt(Type.String({ minLength: 1, maxLength: 32 })),
    x_test_env: Opt(TestEnvField),
  }),
);
export type UpdateWorkspaceBody = Static<typeof UpdateWorkspaceBody>;

export const WorkspaceParams = Type.Object({ workgroupID: Id, workspaceID: Id });
/** Routes that name a workspace by its id alone (`/workspaces/{workspaceID}/…`). */
export const WorkspaceIdParams = Type.Object({ workspaceID: Id });
export const DatabaseParams = Type.Object({ workgroupID: Id, databaseID: Id });

export const RenameDatabaseBody = Component('RenameDatabaseBody', Body({ tg_database_name: Name }));
export type RenameDatabaseBody = Static<typeof RenameDatabaseBody>;
