import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, Name, StringEnum, Timestamp } from './helpers.js';
import { Platform } from './catalog.js';
import { DatabaseRecord, WorkspaceRecord } from './workspace.js';

export const encryptionMethods = ['TMK'] as const;

export const WorkgroupRecord = Type.Object({
  workgroup_id: Type.String(),
  name: Type.String(),
  org_id: Type.String(),
  org_name: Type.String(),
  creator: Type.Optional(Type.String()),
  cloud_provider_id: Type.String(),
  cloud_provider_name: Type.Optional(Type.String()),
  cloud_provider_status: Type.Optional(Type.String()),
  cloud_provider_type: Type.Optional(Type.String()),
  platform: Type.String(),
  region: Type.String(),
  enable_allow_list: Type.Boolean(),
  enable_application_log: Type.Boolean(),
  encryption_method: Type.Optional(Type.String()),
  is_current_ip_allowed: Type.Boolean(),
  shared_storage: Type.Boolean(),
  tg_databases: Type.Array(DatabaseRecord),
  workspaces: Type.Array(WorkspaceRecord),
  created_at: Timestamp,
  version_number: Type.Integer(),
});
export type WorkgroupRecord = Static<typeof WorkgroupRecord>;

export const CreateWorkgroupBody = Body({
  cloud_provider_id: Type.String({ minLength: 1, maxLength: 64 }),
  enable_application_log: Type.Optional(Type.Boolean()),
  enable_encryption: Type.Optional(Type.Boolean()),
  name: Type.Optional(Name),
  platform: Type.Optional(Platform),
  region: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  shared_storage: Type.Optional(Type.Boolean()),
});
export type CreateWorkgroupBody = Static<typeof CreateWorkgroupBody>;

export const UpdateWorkgroupBody = Body({
  enable_application_log: Type.Optional(Type.Boolean()),
  encryption_method: Type.Optional(StringEnum(encryptionMethods)),
  workgroup_name: Type.Optional(Name),
});
export type UpdateWorkgroupBody = Static<typeof UpdateWorkgroupBody>;

export const WorkgroupParams = Type.Object({ workgroupID: Id });
