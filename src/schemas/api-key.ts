import { Type, type Static } from '@sinclair/typebox';
import { Body, Name, StringEnum, Timestamp } from './helpers.js';
import { Component } from './component.js';

/** The roles an API key may have (what each may do: src/domain/permissions.ts). */
export const roles = ['org-admin', 'workgroup-admin', 'workspace-admin', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** What a caller wants to do, as a role allows it or not (src/domain/permissions.ts decides; the console asks too). */
export type Action =
  | 'org:admin' // API keys, cloud providers, add-on installs, creating and deleting workgroups
  | 'workgroup:edit'
  | 'workspace:create'
  | 'workspace:edit'
  | 'workspace:delete';

export const ApiKeyRecord = Component(
  'ApiKeyRecord',
  Type.Object(
    {
      key_name: Type.String(),
      description: Type.Optional(Type.String()),
      role: StringEnum(roles),
      workgroup_ids: Type.Array(Type.String()),
      workspace_ids: Type.Array(Type.String()),
      org_id: Type.String(),
      redacted_key: Type.String({ description: 'the prefix and the first and last 4 characters' }),
      created_by: Type.Optional(Type.String({ description: 'name of the key that created it' })),
      creator: Type.Optional(Type.String({ description: "created_by under the real service's name" })),
      user_id: Type.Optional(Type.String({ description: 'the user the key acts for: it does at most what they may' })),
      user_grants: Type.Optional(
        Type.Array(Type.Object({ role: Type.String(), resource_id: Type.Union([Type.String(), Type.Null()]) }), {
          description: "the key's user's role grants; in GET /apikeys/current only",
        }),
      ),
      created_at: Timestamp,
      expires_at: Type.Optional(Timestamp),
      plaintext_key: Type.Optional(
        Type.String({ description: 'the key itself; returned once, by the create call only' }),
      ),
    },
    { description: 'An API key of the organisation; the key itself is shown only when it is created.' },
  ),
);
export type ApiKeyRecord = Static<typeof ApiKeyRecord>;

const IdList = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, uniqueItems: true });

/** The real service's create request is `{description, life_time_in_seconds}`: name and role have defaults. */
export const CreateApiKeyBody = Component(
  'CreateApiKeyBody',
  Body({
    key_name: Type.Optional(Name),
    description: Type.Optional(Type.String({ maxLength: 256 })),
    role: Type.Optional(StringEnum(roles, { description: "default: the creating key's role" })),
    workgroup_ids: Type.Optional(IdList),
    workspace_ids: Type.Optional(IdList),
    life_time_in_seconds: Type.Optional(
      Type.Integer({ minimum: 60, maximum: 10 * 365 * 24 * 3600, description: 'default: the key never expires' }),
    ),
  }),
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** DELETE /apikeys with a body, as the real service documents it. */
export const DeleteApiKeyBody = Component('DeleteApiKeyBody', Body({ key_name: Name }));
export type DeleteApiKeyBody = Static<typeof DeleteApiKeyBody>;

export const ApiKeyParams = Type.Object({ key_name: Type.String({ minLength: 1, maxLength: 64 }) });
