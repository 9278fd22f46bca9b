import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, Name, StringEnum, Timestamp } from './helpers.js';

const Opt = Type.Optional;

export const AddonRef = Type.Object({
  addons_id: Type.String(),
  enable: Type.Boolean(),
  enable_configuration: Opt(Type.Union([Type.Object({}, { additionalProperties: true }), Type.String()])),
  is_free: Opt(Type.Boolean()),
  unique_name: Opt(Type.String()),
  workspace_id: Opt(Type.String()),
});

export const AgentConfig = Type.Object({
  catalog_activity_update_interval_seconds: Opt(Type.Integer()),
  enable_topology_force_update: Opt(Type.Boolean()),
  heartbeat_interval_seconds: Opt(Type.Integer()),
  query_activity_update_interval_seconds: Opt(Type.Integer()),
  topology_update_interval_seconds: Opt(Type.Integer()),
});

export const FolderStatistics = Type.Object({
  backup_size: Opt(Type.Integer()),
  billed_size: Opt(Type.Integer()),
  log_size: Opt(Type.Integer()),
  vector_size: Opt(Type.Integer()),
  total_size: Opt(Type.Integer()),
  workspaces: Opt(Type.Array(Type.Object({ size: Type.Integer(), workspace_id: Type.String() }))),
});

export const WorkspaceType = Type.Object({
  cpu: Opt(Type.String()),
  ha: Opt(Type.Integer()),
  memory: Opt(Type.String()),
  partition: Opt(Type.Integer()),
  typeName: Opt(Type.String()),
});

/** The Workspace record of the contract; fields the service has no value for are absent. */
export const WorkspaceRecord = Type.Object({
  addons: Opt(Type.Array(AddonRef)),
  agent_config: Opt(AgentConfig),
  auto_stop_minutes: Opt(Type.Integer()),
  auto_upgrade_state: Opt(Type.String()),
  cloud_provider_id: Opt(Type.String()),
  cloud_provider_name: Opt(Type.String()),
  cloud_provider_short_id: Opt(Type.String()),
  condition_type: Opt(Type.String()),
  created_at: Opt(Timestamp),
  deleted_at: Opt(Timestamp),
  last_maintenance: Opt(Timestamp),
  last_modified_time: Opt(Timestamp),
  snapshot_time: Opt(Timestamp),
  creator: Opt(Type.String()),
  database_id: Opt(Type.String()),
  database_name: Opt(Type.String()),
  desired_tg_version: Opt(Type.String()),
  tg_version: Opt(Type.String()),
  display_status: Opt(Type.String()),
  status: Opt(Type.String()),
  refresh_status: Opt(Type.String()),
  refresh_message: Opt(Type.String()),
  err_message: Opt(Type.String()),
  edge_count: Opt(Type.Integer()),
  vertex_count: Opt(Type.Integer()),
  enable_auto_start: Opt(Type.Boolean()),
  enable_assistant: Opt(Type.Boolean()),
  enable_ha: Opt(Type.Boolean()),
  is_rw: Opt(Type.Boolean()),
  folder_statistics: Opt(FolderStatistics),
  graph_topology_size_bytes: Opt(Type.Integer()),
  maintenance_window_day_of_week: Opt(Type.Integer()),
  maintenance_window_hour_of_day: Opt(Type.Integer()),
  maintenance_window_interval_weeks: Opt(Type.Integer()),
  maintenance_window_time_zone: Opt(Type.String()),
  name: Opt(Type.String()),
  proxy_host: Opt(Type.String()),
  org_id: Opt(Type.String()),
  org_name: Opt(Type.String()),
  region: Opt(Type.String()),
  replicas: Opt(Type.Integer()),
  version_number: Opt(Type.Integer()),
  solution_catalog_id: Opt(Type.String()),
  update_strategy: Opt(Type.String()),
  workgroup_id: Opt(Type.String()),
  workgroup_name: Opt(Type.String()),
  workspace_id: Opt(Type.String()),
  workspace_type: Opt(WorkspaceType),
});
export type WorkspaceRecord = Static<typeof WorkspaceRecord>;

export const DatabaseRecord = Type.Object({
  create_time: Opt(Timestamp),
  database_id: Opt(Type.String()),
  folder_statistics: Opt(FolderStatistics),
  name: Opt(Type.String()),
  org_id: Opt(Type.String()),
  org_name: Opt(Type.String()),
  region: Opt(Type.String()),
  tg_version: Opt(Type.String()),
  workgroup_id: Opt(Type.String()),
  workspaces: Opt(Type.Array(WorkspaceRecord)),
  version_number: Opt(Type.Integer()),
});
export type DatabaseRecord = Static<typeof DatabaseRecord>;

// ---- requests --------------------------------------------------------------------------


export const updateStrategies = ['immediate', 'maintenance_window'] as const;
export const autoUpgradeStates = ['enabled', 'disabled'] as const;

/** AddonRef in a request: `enable_configuration` may be an object or a string. */
export const AddonRefInput = Body({
  addons_id: Type.String({ minLength: 1, maxLength: 64 }),
  enable: Type.Boolean(),
  enable_configuration: Opt(Type.Union([Type.Object({}, { additionalProperties: true }), Type.String({ maxLength: 65536 })])),
  is_free: Opt(Type.Boolean()),
  unique_name: Opt(Type.String({ maxLength: 64 })),
  workspace_id: Opt(Type.String({ maxLength: 64 })),
});

const AddonList = Type.Array(AddonRefInput, { maxItems: 32 });

export const AgentConfigInput = Body({
  catalog_activity_update_interval_seconds: Opt(Type.Integer({ minimum: 1, maximum: 86400 })),
  enable_topology_force_update: Opt(Type.Boolean()),
  heartbeat_interval_seconds: Opt(Type.Integer({ minimum: 1, maximum: 86400 })),
  query_activity_update_interval_seconds: Opt(Type.Integer({ minimum: 1, maximum: 86400 })),
  topology_update_interval_seconds: Opt(Type.Integer({ minimum: 1, maximum: 86400 })),
});

const maintenanceWindow = {
  maintenance_window_day_of_week: Opt(Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday' })),
  maintenance_window_hour_of_day: Opt(Type.Integer({ minimum: 0, maximum: 23 })),
  maintenance_window_interval_weeks: Opt(Type.Integer({ minimum: 1, maximum: 4 })),
  maintenance_window_time_zone: Opt(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' })),
};

const TestEnvField = Type.String({ maxLength: 256, description: 'reserved for testing: fault injection for the simulated provisioner' });

export const CreateWorkspaceBody = Body({
  addons: Opt(AddonList),
  auto_stop_minutes: Opt(Type.Integer({ minimum: 0, maximum: 10080 })),
  enable_auto_start: Opt(Type.Boolean()),
  enable_ha: Opt(Type.Boolean()),
  is_rw: Opt(Type.Boolean()),
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
  workspace_type_name: Opt(Type.String({ minLength: 1, maxLength: 32 })),
  x_test_env: Opt(TestEnvField),
});
export type CreateWorkspaceBody = Static<typeof CreateWorkspaceBody>;

export const UpdateWorkspaceBody = Body({
  addons: Opt(AddonList),
  agent_config: Opt(AgentConfigInput),
  auto_stop_minutes: Opt(Type.Integer({ minimum: 0, maximum: 10080 })),
  auto_upgrade_state: Opt(StringEnum(autoUpgradeStates)),
  desired_tg_version: Opt(Type.String({ minLength: 1, maxLength: 32 })),
  enable_auto_start: Opt(Type.Boolean()),
  enable_ha: Opt(Type.Boolean()),
  ...maintenanceWindow,
  pause: Opt(Type.Boolean()),
  update_strategy: Opt(StringEnum(updateStrategies)),
  workspace_name: Opt(Name),
  workspace_type_name: Opt(Type.String({ minLength: 1, maxLength: 32 })),
  x_test_env: Opt(TestEnvField),
});
export type UpdateWorkspaceBody = Static<typeof UpdateWorkspaceBody>;

export const WorkspaceParams = Type.Object({ workgroupID: Id, workspaceID: Id });
/** Routes that name a workspace by its id alone (`/workspaces/{workspaceID}/…`). */
export const WorkspaceIdParams = Type.Object({ workspaceID: Id });
export const DatabaseParams = Type.Object({ workgroupID: Id, databaseID: Id });

export const RenameDatabaseBody = Body({ tg_database_name: Name });
export type RenameDatabaseBody = Static<typeof RenameDatabaseBody>;
