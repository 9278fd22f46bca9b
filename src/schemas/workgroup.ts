import { Type, type Static } from '@sinclair/typebox';
import { Body, Id, ListQuery, Name, Nullable, StringEnum, Timestamp } from './helpers.js';
import { Platform } from './catalog.js';
import { Component, Ref } from './component.js';
import { providerStatuses, providerTypes } from './cloud-provider.js';
import { DatabaseRecord, WorkspaceRecord } from './workspace.js';

export const encryptionMethods = ['TMK'] as const;

export const WorkgroupRecord = Component(
  'WorkgroupRecord',
  Type.Object(
    {
      workgroup_id: Type.String(),
      name: Type.String(),
      org_id: Type.String(),
      org_name: Type.String(),
      creator: Type.Optional(Type.String()),
      cloud_provider_id: Type.String(),
      cloud_provider_name: Type.Optional(Type.String()),
      cloud_provider_status: Type.Optional(StringEnum(providerStatuses)),
      cloud_provider_type: Type.Optional(StringEnum(providerTypes)),
      platform: Platform,
      region: Type.String(),
      enable_allow_list: Type.Boolean({ description: 'the gateway enforces the allow list' }),
      enable_application_log: Type.Boolean(),
      encryption_method: Type.Optional(
        StringEnum(encryptionMethods, { description: 'present when encrypted at rest' }),
      ),
      is_current_ip_allowed: Type.Boolean({ description: "whether the caller's address passes the allow list" }),
      shared_storage: Type.Boolean(),
      tg_databases: Type.Array(Ref(DatabaseRecord)),
      workspaces: Type.Array(Ref(WorkspaceRecord)),
      created_at: Timestamp,
      expires_at: Type.Optional(
        Type.String({
          description: 'RFC 3339; when the engine deletes the workgroup and everything in it (absent: never)',
        }),
      ),
      expired_at: Type.Optional(
        Type.String({ description: 'RFC 3339; when its expiry started: its workspaces are being deleted' }),
      ),
      version_number: Type.Integer({ description: 'increments on every change; sent as ETag, compared with If-Match' }),
    },
    { description: 'A workgroup: a cloud provider and region holding databases, workspaces and an allow list.' },
  ),
);
export type WorkgroupRecord = Static<typeof WorkgroupRecord>;

/** The shape's bound on a relative expiry: ten years; ACACIA_WORKGROUP_MAX_TTL_HOURS decides within it. */
const EXPIRY_SECONDS_MAX = 87_600 * 3600;

/** A workgroup's expiry, as creation and update take it (docs/workgroup-expiry.md). */
const expiryFields = {
  expires_at: Type.Optional(
    Nullable(
      Type.String({
        format: 'date-time',
        maxLength: 64,
        description: 'when the engine deletes the workgroup and everything in it; in the future; null: never',
      }),
    ),
  ),
  expires_in_seconds: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: EXPIRY_SECONDS_MAX,
      description: "expires_at as seconds from the server's clock (an extension; not with expires_at)",
    }),
  ),
};

export const CreateWorkgroupBody = Component(
  'CreateWorkgroupBody',
  Body({
    cloud_provider_id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'id of an Active cloud provider (GET /cloud-providers)',
    }),
    enable_application_log: Type.Optional(Type.Boolean()),
    enable_encryption: Type.Optional(Type.Boolean({ description: 'true encrypts data at rest (TMK)' })),
    ...expiryFields,
    name: Type.Optional(Name),
    platform: Type.Optional(Platform),
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    shared_storage: Type.Optional(Type.Boolean()),
  }),
);
export type CreateWorkgroupBody = Static<typeof CreateWorkgroupBody>;

export const UpdateWorkgroupBody = Component(
  'UpdateWorkgroupBody',
  Body({
    enable_application_log: Type.Optional(Type.Boolean()),
    encryption_method: Type.Optional(StringEnum(encryptionMethods)),
    ...expiryFields,
    workgroup_name: Type.Optional(Name),
  }),
);
export type UpdateWorkgroupBody = Static<typeof UpdateWorkgroupBody>;

export const WorkgroupParams = Type.Object({ workgroupID: Id });

/** GET /workgroups: a page, and (an extension) the workgroup of one name, for lookups by name. */
export const WorkgroupsQuery = Type.Composite([
  ListQuery,
  Type.Object({
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'only the workgroup of this name, compared as names are: Unicode NFC, ignoring case',
      }),
    ),
  }),
]);
export type WorkgroupsQuery = Static<typeof WorkgroupsQuery>;
